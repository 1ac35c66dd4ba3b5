package engine

import (
	"context"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
)

// configs is a ConfigStore that counts its reads.
type configs struct {
	rows    []store.LLMConfig
	version uint64
	reads   int
}

func (c *configs) ListLLMConfig(context.Context) ([]store.LLMConfig, error) {
	c.reads++
	return c.rows, nil
}

func (c *configs) LLMConfigVersion() uint64 { return c.version }

// TestConfigSeesChangesOfThisProcess: the resolver reads the llm_config
// table once for many new sessions, but a change made through the store
// (an admin's PUT) reaches the very next session, as the PUT promises.
func TestConfigSeesChangesOfThisProcess(t *testing.T) {
	ctx := context.Background()
	st := &configs{}
	r := New(agents.Set{}, nil, st)
	for range 3 {
		c, err := r.Config(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if p := c.Components[string(llm.ComponentTutor)].Provider; p != string(llm.ProviderRules) {
			t.Fatalf("tutor provider %q, want rules", p)
		}
	}
	if st.reads != 1 {
		t.Fatalf("%d reads of the table for 3 sessions within the cache's lifetime, want 1", st.reads)
	}
	st.rows = []store.LLMConfig{{Config: llm.Config{Component: llm.ComponentTutor, Provider: llm.ProviderOpenAI, Model: "gpt-4o"}}}
	st.version++
	c, err := r.Config(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cc := c.Components[string(llm.ComponentTutor)]; cc.Provider != string(llm.ProviderOpenAI) || cc.Model != "gpt-4o" {
		t.Fatalf("after a change, the next session pins tutor %+v, want openai gpt-4o", cc)
	}
}
