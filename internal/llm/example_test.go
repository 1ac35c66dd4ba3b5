package llm_test

import (
	"errors"
	"fmt"

	"github.com/tutord/tutord/internal/llm"
)

type Verdict string

func (Verdict) EnumValues() []string { return []string{"correct", "partial", "incorrect"} }

type Evaluation struct {
	Verdict  Verdict `json:"verdict"`
	Feedback string  `json:"feedback" jsonschema:"one sentence for the learner"`
	Hint     *string `json:"hint"`
}

func ExampleDecode() {
	ev, err := llm.Decode[Evaluation]([]byte(`{"verdict": "partial", "feedback": "Check the denominator.", "hint": null}`))
	fmt.Println(ev.Verdict, ev.Feedback, ev.Hint == nil, err)

	_, err = llm.Decode[Evaluation]([]byte(`{"verdict": "almost", "feedback": "", "hint": null}`))
	fmt.Println(errors.Is(err, llm.ErrInvalidOutput))
	// Output:
	// partial Check the denominator. true <nil>
	// true
}

func ExampleSchemaFor() {
	s, err := llm.SchemaFor[Evaluation]()
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Name())
	fmt.Println(string(s.JSON()))
	// Output:
	// evaluation
	// {"type":"object","properties":{"verdict":{"type":"string","enum":["correct","partial","incorrect"]},"feedback":{"type":"string","description":"one sentence for the learner"},"hint":{"type":["null","string"]}},"required":["verdict","feedback","hint"],"additionalProperties":false}
}

func ExamplePriceTable_Cost() {
	prices := llm.DefaultPrices()
	cost, ok := prices.Cost(llm.ProviderOpenAI, "gpt-4o-mini-2024-07-18", llm.Usage{InputTokens: 10_000, CachedInputTokens: 8_000, OutputTokens: 500})
	fmt.Printf("$%.6f %v\n", cost, ok)
	// Output: $0.001200 true
}

func ExampleResolve() {
	settings, err := llm.SettingsFromEnv(func(key string) string {
		return map[string]string{"ANTHROPIC_API_KEY": "sk-ant-example"}[key]
	})
	if err != nil {
		panic(err)
	}
	cfg := llm.Config{Component: llm.ComponentSafety, Provider: llm.ProviderOpenAI, Model: "gpt-5-mini"}
	_, err = llm.Resolve(cfg, settings, llm.Options{})
	fmt.Println(err)

	_, err = llm.Resolve(llm.DefaultConfig(llm.ComponentTutor), settings, llm.Options{})
	fmt.Println(errors.Is(err, llm.ErrRulesEngine))
	// Output:
	// llm: component safety: invalid llm configuration: provider openai needs OPENAI_API_KEY in the environment, which is not set
	// true
}
