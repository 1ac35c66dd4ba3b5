package main

import (
	"context"
	"flag"
	"fmt"
	"os/user"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tutord/tutord/internal/config"
	"github.com/tutord/tutord/internal/llm"
)

// runLLMConfig manages the llm_config table:
//
//	tutord llm-config list
//	tutord llm-config set COMPONENT PROVIDER MODEL [--effort E] [--temperature T] [--max-output-tokens N] [--description D]
//	tutord llm-config reset COMPONENT
//
// Running sessions keep the configuration they were created with.
func runLLMConfig(ctx context.Context, e env, args []string) error {
	var effort, temperature, description string
	var maxTokens int
	cfg, rest, err := loadConfig(e, "llm-config", args, func(fs *flag.FlagSet, _ *config.Config) {
		fs.StringVar(&effort, "effort", "", "set: reasoning effort (none, minimal, low, medium, high)")
		fs.StringVar(&temperature, "temperature", "", "set: sampling temperature, 0 to 2")
		fs.IntVar(&maxTokens, "max-output-tokens", 0, "set: maximum output tokens (0: the provider's default)")
		fs.StringVar(&description, "description", "", "set: a description shown to users")
	})
	if err != nil {
		return err
	}
	usage := usageError{"llm-config needs an action: list, set COMPONENT PROVIDER MODEL [flags] or reset COMPONENT"}
	if len(rest) == 0 {
		return usage
	}
	var c llm.Config
	switch rest[0] {
	case "list":
		if len(rest) != 1 {
			return usage
		}
	case "set":
		if len(rest) != 4 {
			return usageError{"llm-config set needs COMPONENT PROVIDER MODEL, e.g. llm-config set tutor openai gpt-5.2"}
		}
		comp, err := llm.ParseComponent(rest[1])
		if err != nil {
			return usageError{err.Error()}
		}
		prov, err := llm.ParseProvider(rest[2])
		if err != nil {
			return usageError{err.Error()}
		}
		c = llm.Config{Component: comp, Provider: prov, Model: rest[3], Description: description, Effort: llm.Effort(effort), MaxOutputTokens: maxTokens}
		if temperature != "" {
			t, err := strconv.ParseFloat(temperature, 64)
			if err != nil {
				return usageError{fmt.Sprintf("--temperature: %q is not a number", temperature)}
			}
			c.Temperature = &t
		}
		if err := c.ValidateEdit(); err != nil {
			return usageError{err.Error()}
		}
		if !llm.KnownModel(prov, c.Model) {
			return usageError{fmt.Sprintf("unknown model %q for provider %s; known: %s", c.Model, prov, strings.Join(llm.KnownModels()[prov], ", "))}
		}
		settings, err := llm.SettingsFromEnv(func(k string) string { return e.environ[k] })
		if err != nil {
			return err
		}
		if !c.UsesRules() {
			if err := settings.CheckProvider(prov); err != nil {
				return err
			}
		}
	case "reset":
		if len(rest) != 2 {
			return usageError{"llm-config reset needs COMPONENT"}
		}
		comp, err := llm.ParseComponent(rest[1])
		if err != nil {
			return usageError{err.Error()}
		}
		c.Component = comp
	default:
		return usage
	}

	log := newLogger(cfg, e.stderr)
	db, err := openDatabase(ctx, cfg, log, dbUse{migrate: cfg.Migrate, schema: true})
	if err != nil {
		return err
	}
	defer db.close(context.Background(), log)
	switch rest[0] {
	case "set":
		by := "cli"
		if u, err := user.Current(); err == nil {
			by = "cli:" + u.Username
		}
		if _, err := db.store.SetLLMConfig(ctx, c, by, time.Now()); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s now uses %s %s (new sessions; running sessions keep theirs)\n", c.Component, c.Provider, c.Model)
		return nil
	case "reset":
		if err := db.store.DeleteLLMConfig(ctx, c.Component); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s now uses the rules engine\n", c.Component)
		return nil
	}
	rows, err := db.store.ListLLMConfig(ctx)
	if err != nil {
		return err
	}
	byComp := map[llm.Component]llm.Config{}
	for _, r := range rows {
		byComp[r.Config.Component] = r.Config
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COMPONENT\tPROVIDER\tMODEL\tEFFORT\tTEMPERATURE\tMAX TOKENS")
	for _, comp := range llm.Components() {
		r, ok := byComp[comp]
		if !ok {
			r = llm.DefaultConfig(comp)
			r.Model = "-"
		}
		temp := "-"
		if r.Temperature != nil {
			temp = strconv.FormatFloat(*r.Temperature, 'g', -1, 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", comp, r.Provider, r.Model, dash(string(r.Effort)), temp, r.MaxOutputTokens)
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
