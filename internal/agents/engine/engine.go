// Package engine picks the agents of a session: for each component of the
// session's pinned configuration, the rules engine or a model-backed agent
// on the configured provider and model.
package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// ConfigStore reads the llm_config table.
type ConfigStore interface {
	ListLLMConfig(ctx context.Context) ([]store.LLMConfig, error)
	// LLMConfigVersion counts the changes this process made to the table
	// (store.Store.LLMConfigVersion): the resolver rereads it when the
	// count moves.
	LLMConfigVersion() uint64
}

// Models builds model-backed agents for one component's configuration.
type Models interface {
	Safety(cfg llm.Config) (agents.Safety, error)
	Tutor(cfg llm.Config) (agents.Tutor, agents.PostCompletion, error)
	ExamGenerator(cfg llm.Config) (agents.ExamGenerator, error)
	ExamEvaluator(cfg llm.Config) (agents.ExamEvaluator, error)
	Welcomer(cfg llm.Config) (agents.Welcomer, error)
}

// Resolver implements orchestrator.Engines.
type Resolver struct {
	rules  agents.Set
	models Models // nil: only the rules engine is available
	st     ConfigStore
	ttl    time.Duration
	limit  time.Duration // sitting time limit pinned on new sessions

	mu      sync.Mutex
	sets    map[string]agents.Set
	current *tutor.Config
	read    time.Time
	version uint64 // the store's LLMConfigVersion when current was read
}

// New returns a resolver. rules is the rules engine's set; models builds
// model-backed agents (nil when none may be used); st is where the current
// configuration is read from (nil: every component uses the rules engine).
func New(rules agents.Set, models Models, st ConfigStore) *Resolver {
	return &Resolver{rules: rules, models: models, st: st, ttl: 5 * time.Second, sets: map[string]agents.Set{}}
}

// SetTimeLimit sets the sitting time limit pinned on new sessions (0: none).
func (r *Resolver) SetTimeLimit(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limit, r.current = d, nil
}

// The components a session's configuration pins.
var pinned = []llm.Component{llm.ComponentTutor, llm.ComponentSafety, llm.ComponentExamGenerator, llm.ComponentExamEvaluator, llm.ComponentWelcome}

// Config returns the configuration to pin on a new session: the llm_config
// table, the rules engine for components without a row. The table is read
// at most every few seconds, and at once after a change made through the
// store in this process (an admin's PUT); other processes see a change
// within the cache's lifetime (5 s).
func (r *Resolver) Config(ctx context.Context) (tutor.Config, error) {
	var version uint64
	if r.st != nil {
		version = r.st.LLMConfigVersion() // before the read: a change during it is seen next time
	}
	r.mu.Lock()
	if r.current != nil && r.version == version && time.Since(r.read) < r.ttl {
		c := *r.current
		r.mu.Unlock()
		return c, nil
	}
	limit := r.limit
	r.mu.Unlock()
	cfg := tutor.Config{Components: map[string]tutor.ComponentConfig{}, TimeLimitSeconds: int(limit / time.Second)}
	byComp := map[llm.Component]llm.Config{}
	if r.st != nil {
		rows, err := r.st.ListLLMConfig(ctx)
		if err != nil {
			return tutor.Config{}, fmt.Errorf("read llm config: %w", err)
		}
		for _, row := range rows {
			byComp[row.Config.Component] = row.Config
		}
	}
	for _, comp := range pinned {
		c, ok := byComp[comp]
		if !ok {
			c = llm.DefaultConfig(comp)
		}
		cfg.Components[string(comp)] = tutor.ComponentConfig{
			Provider: string(c.Provider), Model: c.Model, ReasoningEffort: string(c.Effort),
			Temperature: c.Temperature, MaxOutputTokens: c.MaxOutputTokens,
		}
	}
	r.mu.Lock()
	r.current, r.read, r.version = &cfg, time.Now(), version
	r.mu.Unlock()
	return cfg, nil
}

// Agents returns the agents of a pinned configuration. Sets are cached by
// configuration, so sessions with the same configuration share clients.
func (r *Resolver) Agents(cfg tutor.Config) (agents.Set, error) {
	if allRules(cfg) {
		return r.rules, nil
	}
	key, err := json.Marshal(cfg.Components)
	if err != nil {
		return agents.Set{}, err
	}
	r.mu.Lock()
	set, ok := r.sets[string(key)]
	r.mu.Unlock()
	if ok {
		return set, nil
	}
	set = r.rules
	for _, comp := range pinned {
		c := componentConfig(comp, cfg)
		if c.UsesRules() {
			continue
		}
		var err error
		if r.models == nil {
			err = fmt.Errorf("component %s uses %s, but model providers are not available in this process", comp, c.Provider)
		} else if err = r.model(&set, comp, c); err != nil {
			err = fmt.Errorf("component %s: %w", comp, err)
		}
		if err != nil {
			// Pinned by a session created where the provider was set up
			// (another replica, or before a restart without its key).
			unavailable(&set, comp, c, err)
		}
	}
	r.mu.Lock()
	if len(r.sets) > 1000 {
		clear(r.sets)
	}
	r.sets[string(key)] = set
	r.mu.Unlock()
	return set, nil
}

func (r *Resolver) model(set *agents.Set, comp llm.Component, c llm.Config) error {
	var err error
	switch comp {
	case llm.ComponentTutor:
		set.Tutor, set.PostCompletion, err = r.models.Tutor(c)
	case llm.ComponentSafety:
		set.Safety, err = r.models.Safety(c)
	case llm.ComponentExamGenerator:
		set.ExamGenerator, err = r.models.ExamGenerator(c)
	case llm.ComponentExamEvaluator:
		set.ExamEvaluator, err = r.models.ExamEvaluator(c)
	case llm.ComponentWelcome:
		set.Welcome, err = r.models.Welcomer(c)
	}
	return err
}

// allRules reports whether every component of cfg uses the rules engine.
func allRules(cfg tutor.Config) bool {
	for _, comp := range pinned {
		if !componentConfig(comp, cfg).UsesRules() {
			return false
		}
	}
	return true
}

// componentConfig returns a component's configuration from a pinned one;
// a session created before a component existed uses the rules engine for it.
func componentConfig(comp llm.Component, cfg tutor.Config) llm.Config {
	cc, ok := cfg.Components[string(comp)]
	if !ok || cc.Provider == "" {
		return llm.DefaultConfig(comp)
	}
	p, err := llm.ParseProvider(cc.Provider)
	if err != nil {
		p = llm.Provider(cc.Provider) // Validate will say what is wrong
	}
	return llm.Config{Component: comp, Provider: p, Model: cc.Model, Effort: llm.Effort(cc.ReasoningEffort),
		Temperature: cc.Temperature, MaxOutputTokens: cc.MaxOutputTokens}
}

// unavailable puts in set, for comp, agents whose every call fails as a
// model call without credentials would (llm.KindAuth): the provider c
// names cannot be used in this process. A turn then goes as it goes when
// a provider fails: the learner is asked to send the message again, the
// state is unchanged, the agent log says why, and the rules classifier
// screens the message. A session is not left answering 500s.
func unavailable(set *agents.Set, comp llm.Component, c llm.Config, cause error) {
	u := unusable{cfg: c, err: &llm.Error{Kind: llm.KindAuth, Provider: c.Provider, Model: c.Model,
		Message: "the provider is not configured in this process", Err: cause}}
	switch comp {
	case llm.ComponentTutor:
		set.Tutor, set.PostCompletion = u, u
	case llm.ComponentSafety:
		set.Safety = u
	case llm.ComponentExamGenerator:
		set.ExamGenerator = u
	case llm.ComponentExamEvaluator:
		set.ExamEvaluator = u
	case llm.ComponentWelcome:
		set.Welcome = u
	}
}

// unusable is an agent of every kind that fails every call with err.
type unusable struct {
	cfg llm.Config
	err error
}

func (u unusable) call(agent string) agents.Call {
	return agents.Call{Agent: agent, Provider: string(u.cfg.Provider), Model: u.cfg.Model, Err: u.err}
}

func (u unusable) Respond(context.Context, agents.Turn) (agents.TutorReply, agents.Call, error) {
	return agents.TutorReply{}, u.call(agents.NameMasterTutor), u.err
}

func (u unusable) Reply(context.Context, agents.Turn) (string, agents.Call, error) {
	return "", u.call(agents.NamePostCompletion), u.err
}

func (u unusable) Check(context.Context, string, string, tutor.State) (agents.SafetyVerdict, agents.Call, error) {
	return agents.SafetyVerdict{}, u.call(agents.NameSafety), u.err
}

func (u unusable) Generate(context.Context, agents.ExamRequest) ([]tutor.ExamQuestion, agents.Call, error) {
	return nil, u.call(agents.NameExamGenerator), u.err
}

func (u unusable) Judge(context.Context, agents.Turn, tutor.ExamQuestion) (agents.ExamJudgement, agents.Call, error) {
	return agents.ExamJudgement{}, u.call(agents.NameExamEvaluator), u.err
}

func (u unusable) Welcome(context.Context, tutor.State, *tutor.Topic) (string, agents.Call, error) {
	return "", u.call(agents.NameWelcome), u.err
}
