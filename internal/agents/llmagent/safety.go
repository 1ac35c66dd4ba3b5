package llmagent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
)

// Safety is the model-backed safety gate.
type Safety struct{ a agent }

var _ agents.Safety = (*Safety)(nil)

// NewSafety returns a safety gate that calls c with the safety component's
// configuration cfg.
func NewSafety(c llm.Client, cfg llm.Config, o Options) *Safety {
	return &Safety{newAgent(agents.NameSafety, c, cfg, o)}
}

// Check implements agents.Safety: one structured call that judges text
// written by role ("tutor", or else the student) for a learner of the
// session's grade, with the session's earlier flags in view. An unsafe
// verdict always has a category and a short, kind guidance reply in the
// learner's language; self-harm gets support and pointers to trusted
// adults and helplines, never a warning. Errors are the client's
// *llm.Error; the caller decides whether the gate then fails open or
// closed.
func (sf *Safety) Check(ctx context.Context, role, text string, s tutor.State) (agents.SafetyVerdict, agents.Call, error) {
	if role != "tutor" {
		role = "student"
	}
	var flags []string
	for _, f := range nonBlank(s.SafetyFlags) {
		if !slices.Contains(flags, f) {
			flags = append(flags, f)
		}
	}
	data := safetyCheck{Role: role, Text: quoted(text), Flags: flags}
	p, err := renderPrompt(tmplSafetySystem, newStudentView(s.StudentContext), tmplSafetyCheck, data)
	if err != nil {
		c, err := sf.a.refuse(err)
		return agents.SafetyVerdict{}, c, err
	}
	j, c, err := ask[safetyJudgement](ctx, &sf.a, s.SessionID, p)
	if err != nil {
		return agents.SafetyVerdict{}, c, err
	}
	c.Reasoning = j.Reasoning
	return j.verdict(), c, nil
}

// safetyCheck is the data of the safety request.
type safetyCheck struct {
	Role  string // student | tutor
	Text  string
	Flags []string // the session's earlier safety flags, each once
}

// safetyJudgement is the safety gate's structured output, with the keys of
// agents.SafetyVerdict.
type safetyJudgement struct {
	IsSafe        bool       `json:"is_safe"`
	ViolationType *violation `json:"violation_type" jsonschema:"The category when the message is unsafe; null when it is safe."`
	Guidance      string     `json:"guidance" jsonschema:"When unsafe: the short, kind reply the student sees instead of the lesson. Empty when safe."`
	ShouldWarn    bool       `json:"should_warn" jsonschema:"True only for a serious or deliberate violation; never for self_harm or abuse."`
	Reasoning     string     `json:"reasoning" jsonschema:"One private sentence on the decision."`
}

// Validate rejects an unsafe verdict without a category or a guidance
// reply.
func (j *safetyJudgement) Validate() error {
	if j.IsSafe {
		return nil
	}
	var errs []error
	if j.ViolationType == nil {
		errs = append(errs, errors.New("violation_type is null for an unsafe message"))
	}
	if strings.TrimSpace(j.Guidance) == "" {
		errs = append(errs, errors.New("guidance is empty for an unsafe message"))
	}
	return errors.Join(errs...)
}

// verdict returns the judgement as the gate's verdict: a safe one carries
// nothing but the reasoning, and self-harm never earns a warning.
func (j *safetyJudgement) verdict() agents.SafetyVerdict {
	if j.IsSafe || j.ViolationType == nil {
		return agents.SafetyVerdict{Safe: true, Reasoning: j.Reasoning}
	}
	v := *j.ViolationType
	return agents.SafetyVerdict{
		Category:  string(v),
		Guidance:  strings.TrimSpace(j.Guidance),
		Warn:      j.ShouldWarn && v != violationSelfHarm && v != violationAbuse,
		Reasoning: j.Reasoning,
	}
}

// violation is a category of unsafe content.
type violation string

// The categories about harm done to the learner: they get support, never
// a warning.
const (
	violationSelfHarm violation = "self_harm"
	violationAbuse    violation = "abuse"
)

// EnumValues lists the categories for the output schema.
func (violation) EnumValues() []string {
	return []string{string(violationSelfHarm), string(violationAbuse), "violence", "sexual", "hate", "personal_data", "bullying", "other"}
}
