package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"
)

// UsageRecord describes one model call, successful or not, for the usage
// table, budgets and cost reports.
type UsageRecord struct {
	Time      time.Time // when the call started
	LearnerID string
	SessionID string
	Component Component
	Provider  Provider
	Model     string // the configured model id
	Attempts  int
	Latency   time.Duration
	Usage     Usage
	// ErrorKind is empty for a successful call.
	ErrorKind ErrorKind
	// PromptHash identifies the prompt (system prompt, messages, schema and
	// tools) without storing it: equal prompts have equal hashes.
	PromptHash string
	// CostUSD is the estimated cost; Priced is false when the model has no
	// price, and CostUSD is then zero.
	CostUSD float64
	Priced  bool
}

// UsageRecorder stores usage records. The client calls it once per call, as
// soon as the call completes and outside any transaction of the caller, so
// that spend on a turn that is later discarded still counts. It is called
// with a context that outlives the caller's cancellation (but with a
// deadline of its own). Implementations must be safe for concurrent use.
type UsageRecorder interface {
	// RecordUsage stores r. An error is logged by the client; it does not
	// fail the call, whose tokens are already spent.
	RecordUsage(ctx context.Context, r UsageRecord) error
}

// SpendReader reports what a learner has spent; the usage store implements
// it from the recorded costs.
type SpendReader interface {
	// LearnerSpendSince returns the estimated cost in US dollars of the
	// learner's calls that started at or after since.
	LearnerSpendSince(ctx context.Context, learnerID string, since time.Time) (float64, error)
	// AnonymousSpendSince returns the estimated cost in US dollars of the
	// calls of anonymous sessions (no learner) that started at or after
	// since.
	AnonymousSpendSince(ctx context.Context, since time.Time) (float64, error)
}

// Budget caps what one learner may spend on model calls per UTC day.
// Anonymous sessions, which have no learner to count against, share one
// such budget: otherwise a learner whose budget was spent could go on by
// leaving out their token.
type Budget struct {
	// DailyUSD is the cap; zero turns the budget off.
	DailyUSD float64
	Spend    SpendReader
	// Now replaces time.Now in tests.
	Now func() time.Time

	mu    sync.Mutex
	calls map[string]*learnerCalls // by learner, while they have calls
	// warnedUnpriced holds the models without a price whose calls were
	// made under the budget (see unpriced), each a "provider/model" key.
	warnedUnpriced sync.Map
}

// unpriced reports, the first time a model without a price is called under
// b, that its calls cost nothing by the price table: they never count
// against the budget.
func (b *Budget) unpriced(ctx context.Context, log *slog.Logger, p Provider, model string) {
	if b == nil || b.DailyUSD <= 0 {
		return
	}
	if _, seen := b.warnedUnpriced.LoadOrStore(string(p)+"/"+model, true); seen {
		return
	}
	log.LogAttrs(ctx, slog.LevelWarn, "llm: model has no price, so its calls do not count against the daily budget; give it one in TUTORD_LLM_PRICES",
		slog.String("provider", string(p)), slog.String("model", model))
}

// learnerCalls is the turn of a learner's calls: ch holds a token while one
// runs; refs counts the calls running or waiting.
type learnerCalls struct {
	ch   chan struct{}
	refs int
}

// begin waits until no other call of the learner runs in this process, and
// returns the function that ends this one, to be called once its usage is
// recorded. Under a budget a learner's calls run one at a time, each
// checked against the spend of those before it: otherwise calls started
// together (a turn in each of several tabs) would all pass the check
// before any was counted, and together spend far past the cap. (Processes
// sharing a database each keep their own turn: the cap can be passed by
// one call per process.) Without a budget, or for anonymous sessions,
// begin does nothing: their shared budget is checked, but their calls do
// not wait on each other's, so calls running together can pass it by what
// they cost.
func (b *Budget) begin(ctx context.Context, learnerID string) (func(), error) {
	if b == nil || b.DailyUSD <= 0 || learnerID == "" {
		return func() {}, nil
	}
	b.mu.Lock()
	if b.calls == nil {
		b.calls = map[string]*learnerCalls{}
	}
	e := b.calls[learnerID]
	if e == nil {
		e = &learnerCalls{ch: make(chan struct{}, 1)}
		b.calls[learnerID] = e
	}
	e.refs++
	b.mu.Unlock()
	release := func() {
		b.mu.Lock()
		if e.refs--; e.refs == 0 {
			delete(b.calls, learnerID)
		}
		b.mu.Unlock()
	}
	select {
	case e.ch <- struct{}{}:
		return func() { <-e.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// Validate reports whether b is usable.
func (b *Budget) Validate() error {
	if b == nil {
		return nil
	}
	if b.DailyUSD < 0 || math.IsNaN(b.DailyUSD) || math.IsInf(b.DailyUSD, 0) {
		return fmt.Errorf("%w: daily budget %v must be a non-negative number of US dollars", ErrInvalidConfig, b.DailyUSD)
	}
	if b.DailyUSD > 0 && b.Spend == nil {
		return fmt.Errorf("%w: a daily budget needs a spend reader", ErrInvalidConfig)
	}
	return nil
}

// Check returns an error of kind KindBudgetExceeded, with RetryAfter set to
// the next UTC midnight, when the learner has spent the day's budget, or,
// for an empty learner id, when anonymous sessions together have. A nil or
// zero budget always passes. Other errors come from the SpendReader.
func (b *Budget) Check(ctx context.Context, learnerID string) error {
	if b == nil || b.DailyUSD <= 0 {
		return nil
	}
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	t := now().UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	who, spent, err := "the learner has", 0.0, error(nil)
	if learnerID == "" {
		who = "anonymous sessions have together"
		spent, err = b.Spend.AnonymousSpendSince(ctx, day)
	} else {
		spent, err = b.Spend.LearnerSpendSince(ctx, learnerID, day)
	}
	if err != nil {
		return fmt.Errorf("llm: reading the spend: %w", err)
	}
	if spent >= b.DailyUSD {
		return &Error{
			Kind:       KindBudgetExceeded,
			Message:    fmt.Sprintf("%s spent $%.4f of a $%.2f daily budget", who, spent, b.DailyUSD),
			RetryAfter: day.AddDate(0, 0, 1).Sub(t),
		}
	}
	return nil
}

// promptHash returns a hex SHA-256 of everything in req that the provider
// sees, in an unambiguous encoding (each field length-prefixed).
func promptHash(req *Request) string {
	h := sha256.New()
	var n [20]byte
	field := func(s string) {
		h.Write(strconv.AppendInt(n[:0], int64(len(s)), 10))
		h.Write([]byte{':'})
		io.WriteString(h, s)
	}
	field(req.System)
	for _, m := range req.Messages {
		field(string(m.Role))
		field(m.Content)
		field(m.ToolCallID)
		for _, c := range m.ToolCalls {
			field(c.ID)
			field(c.Name)
			field(string(c.Arguments))
		}
	}
	if req.Output != nil {
		field(string(req.Output.strict))
	}
	for _, t := range req.Tools {
		field(t.Name)
		field(t.Description)
		if t.Parameters != nil {
			field(string(t.Parameters.strict))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
