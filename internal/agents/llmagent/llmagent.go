package llmagent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
)

// Options are what the agents need besides their client and configuration.
// The zero value works.
type Options struct {
	// Prices estimate the cost of each call in its Call record; nil means
	// llm.DefaultPrices(). Use the table the clients were resolved with.
	Prices llm.PriceTable
	// Now replaces time.Now to time calls, in tests.
	Now func() time.Time
}

// agent is what every model-backed agent shares: a client, the
// component's configuration, and the means to fill in a Call record.
type agent struct {
	name   string // agents.NameX, as agent logs show it
	client llm.Client
	cfg    llm.Config
	prices llm.PriceTable
	now    func() time.Time
}

func newAgent(name string, c llm.Client, cfg llm.Config, o Options) agent {
	a := agent{name: name, client: c, cfg: cfg, prices: o.Prices, now: o.Now}
	if a.prices == nil {
		a.prices = llm.DefaultPrices()
	}
	if a.now == nil {
		a.now = time.Now
	}
	return a
}

// call returns a Call record for a call that has not been made yet.
func (a *agent) call(p prompt) agents.Call {
	return agents.Call{Agent: a.name, Provider: string(a.cfg.Provider), Model: a.cfg.Model, Prompt: p.String()}
}

// refuse returns the record and the error of a call that was not made
// because its prompt could not be built.
func (a *agent) refuse(cause error) (agents.Call, error) {
	return a.fail(agents.Call{Agent: a.name, Provider: string(a.cfg.Provider), Model: a.cfg.Model}, llm.KindInvalidRequest, cause)
}

// fail returns c with the error of a call that could not be made or
// whose output could not be used, and that error: an *llm.Error of the
// given kind, so that callers branch on every failure alike.
func (a *agent) fail(c agents.Call, kind llm.ErrorKind, cause error) (agents.Call, error) {
	err := &llm.Error{Kind: kind, Provider: a.cfg.Provider, Model: a.cfg.Model, Message: cause.Error(), Err: cause}
	c.Err = err
	return c, err
}

// ask asks the model for a T with prompt p and records the call: the
// prompt, the output as JSON, the time it took, the requests sent, the
// tokens of the reply and of any repair, and their estimated cost. A T is
// returned only when it passed the schema and its Validate method; on
// error the T is the zero value and the error is the client's *llm.Error.
func ask[T any](ctx context.Context, a *agent, sessionID string, p prompt) (T, agents.Call, error) {
	var zero T
	c := a.call(p)
	if a.client == nil {
		c, err := a.fail(c, llm.KindInvalidRequest, fmt.Errorf("the %s agent has no model client", a.name))
		return zero, c, err
	}
	req := llm.Request{
		Call:            llm.CallInfo{LearnerID: agents.LearnerFrom(ctx), SessionID: sessionID, Component: a.cfg.Component},
		System:          p.system,
		Messages:        []llm.Message{{Role: llm.RoleUser, Content: p.user}},
		Temperature:     a.cfg.Temperature,
		MaxOutputTokens: a.cfg.MaxOutputTokens,
		Effort:          a.cfg.Effort,
	}
	start := a.now()
	v, res, err := llm.Structured[T](ctx, a.client, req)
	c.Latency = a.now().Sub(start)
	var usage llm.Usage
	for _, r := range res.Calls {
		usage = usage.Add(r.Usage)
		c.Attempts += r.Attempts
		if r.Provider != "" {
			c.Provider = string(r.Provider)
		}
		if r.Model != "" {
			c.Model = r.Model
		}
	}
	c.InputTokens = int(usage.InputTokens)
	c.OutputTokens = int(usage.OutputTokens)
	c.CachedTokens = int(usage.CachedInputTokens)
	c.CostUSD = a.cost(llm.Provider(c.Provider), c.Model, usage)
	if err != nil {
		c.Err = err
		return zero, c, err
	}
	out, err := json.Marshal(v)
	if err != nil {
		c, err = a.fail(c, llm.KindInvalidOutput, fmt.Errorf("encode the %s output: %w", a.name, err))
		return zero, c, err
	}
	c.Output = out
	return v, c, nil
}

// cost prices usage as the usage records do, by the configured model, or
// else by the model that answered (a dated snapshot of a listed family).
func (a *agent) cost(answered llm.Provider, model string, u llm.Usage) float64 {
	if cost, ok := a.prices.Cost(a.cfg.Provider, a.cfg.Model, u); ok {
		return cost
	}
	cost, _ := a.prices.Cost(answered, model, u)
	return cost
}
