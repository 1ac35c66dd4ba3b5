package llmagent

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
)

func TestSafetyVerdicts(t *testing.T) {
	selfHarm, personal := violation("self_harm"), violation("personal_data")
	tests := []struct {
		name    string
		replies []llmtest.Reply
		want    agents.SafetyVerdict
	}{
		{
			name:    "safe",
			replies: []llmtest.Reply{{Text: `{"is_safe": true, "violation_type": null, "guidance": "", "should_warn": true, "reasoning": "Lesson talk."}`}},
			want:    agents.SafetyVerdict{Safe: true, Reasoning: "Lesson talk."},
		},
		{
			name: "personal data",
			replies: []llmtest.Reply{{Text: string(mustJSON(t, safetyJudgement{
				ViolationType: &personal, Guidance: " Let's keep phone numbers private. Back to fractions? ", ShouldWarn: true, Reasoning: "Shares a phone number.",
			}))}},
			want: agents.SafetyVerdict{Category: "personal_data", Guidance: "Let's keep phone numbers private. Back to fractions?", Warn: true, Reasoning: "Shares a phone number."},
		},
		{
			name: "self-harm is supported, never warned",
			replies: []llmtest.Reply{{Text: string(mustJSON(t, safetyJudgement{
				ViolationType: &selfHarm, Guidance: "I'm glad you told me. Please talk to a trusted adult now.", ShouldWarn: true, Reasoning: "Self-harm.",
			}))}},
			want: agents.SafetyVerdict{Category: "self_harm", Guidance: "I'm glad you told me. Please talk to a trusted adult now.", Reasoning: "Self-harm."},
		},
		{
			name: "an unsafe verdict without a category is repaired",
			replies: []llmtest.Reply{
				{Text: `{"is_safe": false, "violation_type": null, "guidance": "", "should_warn": false, "reasoning": "?"}`},
				{Text: string(mustJSON(t, safetyJudgement{ViolationType: &personal, Guidance: "Keep it private.", Reasoning: "Address."}))},
			},
			want: agents.SafetyVerdict{Category: "personal_data", Guidance: "Keep it private.", Reasoning: "Address."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOpenAI(t, tt.replies...)
			s := NewSafety(f.client(t, llm.ComponentSafety), f.config(llm.ComponentSafety), opts())
			v, c, err := s.Check(context.Background(), "student", "a message", lesson(t).state)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, v); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
			if c.Agent != agents.NameSafety || c.Reasoning != tt.want.Reasoning || c.Attempts != len(tt.replies) {
				t.Errorf("call record %+v", c)
			}
		})
	}
}

func TestSafetyRoles(t *testing.T) {
	tests := []struct{ role, want string }{
		{"student", "Written by the student."},
		{"tutor", "Written by the tutor: a reply about to be sent to the student. It must be safe and suitable for a child."},
		{"", "Written by the student."},
	}
	for _, tt := range tests {
		f := newOpenAI(t, reply(t, safetyJudgement{IsSafe: true}))
		s := NewSafety(f.client(t, llm.ComponentSafety), f.config(llm.ComponentSafety), opts())
		_, c, err := s.Check(context.Background(), tt.role, "  hello  ", lesson(t).state)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.Prompt, tt.want+"\n\"\"\"\nhello\n\"\"\"") {
			t.Errorf("role %q: the prompt lacks %q:\n%s", tt.role, tt.want, c.Prompt)
		}
		body := string(f.srv.Requests()[0].Body)
		if !strings.Contains(body, `"enum":["self_harm","abuse","violence","sexual","hate","personal_data","bullying","other",null]`) {
			t.Errorf("the output schema lacks the categories:\n%s", body)
		}
	}
}
