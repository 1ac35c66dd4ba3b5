package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// CachedInput is the price of input read from the prompt cache.
	CachedInput float64 `json:"cached_input"`
	// CacheWriteInput is the price of input written to the prompt cache:
	// 1.25 times Input for Anthropic's default five-minute cache entries,
	// which are the only ones the adapter asks for; Input for providers
	// that charge nothing extra.
	CacheWriteInput float64 `json:"cache_write_input"`
}

// Cost returns the estimated cost of u in US dollars. Cached and written
// tokens are parts of u.InputTokens; counts above it are capped, so that a
// provider's odd report cannot price more input than the call had.
func (p Price) Cost(u Usage) float64 {
	cached := min(max(u.CachedInputTokens, 0), u.InputTokens)
	written := min(max(u.CacheWriteInputTokens, 0), u.InputTokens-cached)
	uncached := max(u.InputTokens-cached-written, 0)
	return (float64(uncached)*p.Input + float64(cached)*p.CachedInput + float64(written)*p.CacheWriteInput +
		float64(u.OutputTokens)*p.Output) / 1e6
}

// PriceTable holds prices per provider and model id. A model id that is not
// listed takes the price of its longest listed prefix, so that dated
// snapshots (claude-haiku-4-5-20251001, gpt-4o-2024-08-06) are priced like
// their family.
type PriceTable map[Provider]map[string]Price

// DefaultPrices returns list prices of current models as of late 2025
// (standard tier, prompts under 200k tokens). They are estimates for budgets
// and reports, not invoices: override them with ParsePrices when they change.
// Anthropic bills five-minute cache writes at 1.25 times and cache reads at
// 0.1 times the input price; OpenAI and Gemini's implicit caching bill
// writes as plain input. Models served by OpenAI-compatible servers have no
// default price.
func DefaultPrices() PriceTable {
	return PriceTable{
		ProviderOpenAI: writesAtInputPrice(map[string]Price{
			"gpt-5.2":      {Input: 1.75, CachedInput: 0.175, Output: 14},
			"gpt-5.1":      {Input: 1.25, CachedInput: 0.125, Output: 10},
			"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10},
			"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2},
			"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40},
			"gpt-4.1":      {Input: 2, CachedInput: 0.50, Output: 8},
			"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60},
			"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40},
			"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10},
			"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60},
			"o3":           {Input: 2, CachedInput: 0.50, Output: 8},
			"o3-mini":      {Input: 1.10, CachedInput: 0.55, Output: 4.40},
			"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40},
		}),
		ProviderAnthropic: {
			"claude-opus-4-6":   {Input: 5, CachedInput: 0.50, CacheWriteInput: 6.25, Output: 25},
			"claude-opus-4-5":   {Input: 5, CachedInput: 0.50, CacheWriteInput: 6.25, Output: 25},
			"claude-opus-4":     {Input: 15, CachedInput: 1.50, CacheWriteInput: 18.75, Output: 75},
			"claude-sonnet-4":   {Input: 3, CachedInput: 0.30, CacheWriteInput: 3.75, Output: 15},
			"claude-haiku-4-5":  {Input: 1, CachedInput: 0.10, CacheWriteInput: 1.25, Output: 5},
			"claude-3-5-haiku":  {Input: 0.80, CachedInput: 0.08, CacheWriteInput: 1, Output: 4},
			"claude-3-7-sonnet": {Input: 3, CachedInput: 0.30, CacheWriteInput: 3.75, Output: 15},
		},
		ProviderGoogle: writesAtInputPrice(map[string]Price{
			"gemini-3.1-pro":        {Input: 2, CachedInput: 0.20, Output: 12},
			"gemini-3-pro":          {Input: 2, CachedInput: 0.20, Output: 12},
			"gemini-3-flash":        {Input: 0.50, CachedInput: 0.05, Output: 3},
			"gemini-2.5-pro":        {Input: 1.25, CachedInput: 0.125, Output: 10},
			"gemini-2.5-flash":      {Input: 0.30, CachedInput: 0.03, Output: 2.50},
			"gemini-2.5-flash-lite": {Input: 0.10, CachedInput: 0.01, Output: 0.40},
			"gemini-2.0-flash":      {Input: 0.10, CachedInput: 0.025, Output: 0.40},
		}),
	}
}

// writesAtInputPrice sets the cache write price of every model to its input
// price, for providers without a write premium.
func writesAtInputPrice(models map[string]Price) map[string]Price {
	for m, p := range models {
		p.CacheWriteInput = p.Input
		models[m] = p
	}
	return models
}

// Lookup returns the price of a model: its own entry, else the entry of its
// longest listed prefix.
func (t PriceTable) Lookup(p Provider, model string) (Price, bool) {
	models := t[p]
	if price, ok := models[model]; ok {
		return price, true
	}
	best, found := "", false
	for prefix := range models {
		if strings.HasPrefix(model, prefix) && len(prefix) > len(best) {
			best, found = prefix, true
		}
	}
	return models[best], found
}

// Cost returns the estimated cost of u on a model, and whether the model has
// a price.
func (t PriceTable) Cost(p Provider, model string, u Usage) (float64, bool) {
	price, ok := t.Lookup(p, model)
	if !ok {
		return 0, false
	}
	return price.Cost(u), true
}

// With returns a copy of t with the entries of overrides added or replaced.
func (t PriceTable) With(overrides PriceTable) PriceTable {
	out := make(PriceTable, len(t)+len(overrides))
	for p, models := range t {
		out[p] = maps.Clone(models)
	}
	for p, models := range overrides {
		if out[p] == nil {
			out[p] = make(map[string]Price, len(models))
		}
		maps.Copy(out[p], models)
	}
	return out
}

// ParsePrices reads a price table from JSON, for overriding the defaults:
//
//	{"anthropic": {"claude-haiku-4-5": {"input": 1, "output": 5, "cached_input": 0.1, "cache_write_input": 1.25}}}
//
// Prices are US dollars per million tokens. A missing cached_input or
// cache_write_input is the input price (no discount or premium assumed).
// Providers are named as in Config
// ("gemini" is accepted); unknown providers or fields, a model priced twice
// under two names of one provider ("google" and "gemini"), negative or
// non-finite prices, and anything after the table are errors.
func ParsePrices(data []byte) (PriceTable, error) {
	var raw map[string]map[string]struct {
		Input           *float64 `json:"input"`
		Output          *float64 `json:"output"`
		CachedInput     *float64 `json:"cached_input"`
		CacheWriteInput *float64 `json:"cache_write_input"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: price table: %v", ErrInvalidConfig, err)
	}
	// One table, and nothing after it: a stray brace or a second table
	// pasted after the first would otherwise be dropped unseen.
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: price table: text after the table (the value must be one JSON object)", ErrInvalidConfig)
	}
	out := make(PriceTable, len(raw))
	named := map[Provider]string{} // the name each provider was given
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		models := raw[name]
		p, err := ParseProvider(name)
		if err != nil {
			return nil, fmt.Errorf("price table: %w", err)
		}
		if p == ProviderRules {
			return nil, fmt.Errorf("%w: price table: the rules engine has no price", ErrInvalidConfig)
		}
		if out[p] == nil {
			out[p] = make(map[string]Price, len(models))
		}
		for model, v := range models {
			if _, dup := out[p][model]; dup {
				return nil, fmt.Errorf("%w: price table: %s/%s is priced under both %q and %q: keep one", ErrInvalidConfig, p, model, named[p], name)
			}
			if v.Input == nil || v.Output == nil {
				return nil, fmt.Errorf("%w: price table: %s/%s needs input and output prices", ErrInvalidConfig, p, model)
			}
			price := Price{Input: *v.Input, Output: *v.Output, CachedInput: *v.Input, CacheWriteInput: *v.Input}
			if v.CachedInput != nil {
				price.CachedInput = *v.CachedInput
			}
			if v.CacheWriteInput != nil {
				price.CacheWriteInput = *v.CacheWriteInput
			}
			for _, f := range []float64{price.Input, price.Output, price.CachedInput, price.CacheWriteInput} {
				if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
					return nil, fmt.Errorf("%w: price table: %s/%s has a negative or non-finite price", ErrInvalidConfig, p, model)
				}
			}
			out[p][model] = price
		}
		named[p] = name
	}
	return out, nil
}
