package llm

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPriceLookup(t *testing.T) {
	prices := DefaultPrices()
	for _, tc := range []struct {
		p      Provider
		model  string
		want   string // the entry it should resolve to; "" means none
		wantOK bool
	}{
		{ProviderOpenAI, "gpt-4o", "gpt-4o", true},
		{ProviderOpenAI, "gpt-4o-mini-2024-07-18", "gpt-4o-mini", true},
		{ProviderOpenAI, "gpt-4o-2024-08-06", "gpt-4o", true},
		{ProviderOpenAI, "gpt-5.2", "gpt-5.2", true},
		{ProviderOpenAI, "gpt-5-mini", "gpt-5-mini", true},
		// o3-mini is half o3's price, not o3's.
		{ProviderOpenAI, "o3-2025-04-16", "o3", true},
		{ProviderOpenAI, "o3-mini", "o3-mini", true},
		{ProviderOpenAI, "o3-mini-2025-01-31", "o3-mini", true},
		{ProviderAnthropic, "claude-haiku-4-5-20251001", "claude-haiku-4-5", true},
		{ProviderAnthropic, "claude-opus-4-6", "claude-opus-4-6", true},
		{ProviderAnthropic, "claude-opus-4-1", "claude-opus-4", true},
		{ProviderAnthropic, "claude-sonnet-4-5", "claude-sonnet-4", true},
		{ProviderGoogle, "gemini-2.5-flash-lite", "gemini-2.5-flash-lite", true},
		{ProviderGoogle, "gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash", true},
		{ProviderGoogle, "gemini-3-pro-preview", "gemini-3-pro", true},
		{ProviderGoogle, "gemini-3.1-pro-preview", "gemini-3.1-pro", true},
		{ProviderOpenAICompatible, "llama3.1", "", false},
		{ProviderOpenAI, "davinci", "", false},
	} {
		t.Run(string(tc.p)+"/"+tc.model, func(t *testing.T) {
			got, ok := prices.Lookup(tc.p, tc.model)
			if ok != tc.wantOK {
				t.Fatalf("Lookup ok = %v", ok)
			}
			if ok && got != prices[tc.p][tc.want] {
				t.Errorf("Lookup = %+v, want the price of %s %+v", got, tc.want, prices[tc.p][tc.want])
			}
		})
	}
}

func TestPriceCost(t *testing.T) {
	p := Price{Input: 2, Output: 10, CachedInput: 0.5, CacheWriteInput: 2.5}
	for _, tc := range []struct {
		name string
		u    Usage
		want float64
	}{
		{"nothing", Usage{}, 0},
		{"a million in and out", Usage{InputTokens: 1e6, OutputTokens: 1e6}, 12},
		{"cached part at the cached price", Usage{InputTokens: 1e6, CachedInputTokens: 4e5, OutputTokens: 0}, 0.6*2 + 0.4*0.5},
		{"cached above input is capped", Usage{InputTokens: 100, CachedInputTokens: 500}, 100 * 0.5 / 1e6},
		{"written part at the write price", Usage{InputTokens: 1e6, CachedInputTokens: 2e5, CacheWriteInputTokens: 3e5}, 0.5*2 + 0.2*0.5 + 0.3*2.5},
		{"writes above the uncached rest are capped", Usage{InputTokens: 100, CachedInputTokens: 60, CacheWriteInputTokens: 80}, (60*0.5 + 40*2.5) / 1e6},
		{"negative counts count as none", Usage{InputTokens: 100, CachedInputTokens: -5, CacheWriteInputTokens: -5}, 100 * 2 / 1e6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.Cost(tc.u); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Cost = %v, want %v", got, tc.want)
			}
		})
	}
	if got, ok := DefaultPrices().Cost(ProviderAnthropic, "claude-haiku-4-5", Usage{InputTokens: 2000, OutputTokens: 500}); !ok || math.Abs(got-(2000*1+500*5)/1e6) > 1e-12 {
		t.Errorf("table Cost = %v, %v", got, ok)
	}
	// 2000 prompt tokens: 500 plain, 1000 read from the cache, 500 written.
	u := Usage{InputTokens: 2000, CachedInputTokens: 1000, CacheWriteInputTokens: 500, OutputTokens: 500}
	if got, ok := DefaultPrices().Cost(ProviderAnthropic, "claude-haiku-4-5", u); !ok || math.Abs(got-(500*1+1000*0.1+500*1.25+500*5)/1e6) > 1e-12 {
		t.Errorf("table Cost with cache writes = %v, %v", got, ok)
	}
	if _, ok := DefaultPrices().Cost(ProviderOpenAICompatible, "llama", Usage{InputTokens: 1}); ok {
		t.Error("an unpriced model has a cost")
	}
}

// TestDefaultCachePrices pins the providers' cache pricing: Anthropic bills
// five-minute cache writes at 1.25 times and reads at 0.1 times the input
// price (the adapter never asks for the one-hour cache, billed at 2 times);
// OpenAI and Gemini's implicit cache bill writes as plain input.
func TestDefaultCachePrices(t *testing.T) {
	for p, models := range DefaultPrices() {
		for m, price := range models {
			wantWrite, wantRead := price.Input, price.CachedInput
			if p == ProviderAnthropic {
				wantWrite, wantRead = 1.25*price.Input, 0.1*price.Input
			}
			if math.Abs(price.CacheWriteInput-wantWrite) > 1e-9 || math.Abs(price.CachedInput-wantRead) > 1e-9 {
				t.Errorf("%s/%s: %+v, want cache writes at %v and reads at %v", p, m, price, wantWrite, wantRead)
			}
		}
	}
}

func TestParsePrices(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want PriceTable
		ok   bool
	}{
		{"full", `{"anthropic": {"claude-x": {"input": 1, "output": 5, "cached_input": 0.1, "cache_write_input": 1.25}}}`,
			PriceTable{ProviderAnthropic: {"claude-x": {Input: 1, Output: 5, CachedInput: 0.1, CacheWriteInput: 1.25}}}, true},
		{"cache prices default to input", `{"openai-compatible": {"llama": {"input": 0.2, "output": 0.2}}}`,
			PriceTable{ProviderOpenAICompatible: {"llama": {Input: 0.2, Output: 0.2, CachedInput: 0.2, CacheWriteInput: 0.2}}}, true},
		{"gemini alias", `{"gemini": {"g": {"input": 0, "output": 0}}}`, PriceTable{ProviderGoogle: {"g": {}}}, true},
		{"empty", `{}`, PriceTable{}, true},
		{"not JSON", `{`, nil, false},
		{"unknown field", `{"openai": {"m": {"input": 1, "output": 1, "per_request": 1}}}`, nil, false},
		{"missing output", `{"openai": {"m": {"input": 1}}}`, nil, false},
		{"negative", `{"openai": {"m": {"input": 1, "output": -1}}}`, nil, false},
		{"negative cache write", `{"anthropic": {"m": {"input": 1, "output": 1, "cache_write_input": -1}}}`, nil, false},
		{"rules", `{"rules": {"m": {"input": 1, "output": 1}}}`, nil, false},
		// An operator's typo after the table must stop the start, not drop
		// the rest unseen and count budgets at prices never set.
		{"extra closing brace", `{"openai": {"gpt-4o": {"input": 1, "output": 2}}}}`, nil, false},
		{"second table after the first", `{"openai": {"gpt-4o": {"input": 1, "output": 2}}} {"anthropic": {"claude-haiku-4-5": {"input": -1, "output": 5}}}`, nil, false},
		{"text after the table", `{"openai": {"gpt-4o": {"input": 1, "output": 2}}} oops`, nil, false},
		{"spaces after the table", "{\"openai\": {}}\n  ", PriceTable{ProviderOpenAI: {}}, true},
		// A model priced under both of Google's names would get either
		// price, from one start to the next.
		{"one model under google and gemini", `{"google": {"gemini-2.5-flash": {"input": 1, "output": 1}}, "gemini": {"gemini-2.5-flash": {"input": 9, "output": 9}}}`, nil, false},
		{"different models under google and gemini", `{"google": {"a": {"input": 1, "output": 1}}, "gemini": {"b": {"input": 2, "output": 2}}}`,
			PriceTable{ProviderGoogle: {"a": {Input: 1, Output: 1, CachedInput: 1, CacheWriteInput: 1}, "b": {Input: 2, Output: 2, CachedInput: 2, CacheWriteInput: 2}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParsePrices([]byte(tc.in))
			if !tc.ok {
				if !errors.Is(err, ErrInvalidConfig) {
					t.Fatalf("ParsePrices = %v, %v; want a config error", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPriceTableWithDoesNotChangeTheOriginal(t *testing.T) {
	base := DefaultPrices()
	before := base[ProviderOpenAI]["gpt-4o"]
	merged := base.With(PriceTable{ProviderOpenAI: {"gpt-4o": {Input: 99, Output: 99, CachedInput: 99}}})
	if base[ProviderOpenAI]["gpt-4o"] != before {
		t.Error("With modified its receiver")
	}
	if merged[ProviderOpenAI]["gpt-4o"].Input != 99 || merged[ProviderOpenAI]["gpt-4o-mini"] != base[ProviderOpenAI]["gpt-4o-mini"] {
		t.Errorf("merged table = %+v", merged[ProviderOpenAI])
	}
}
