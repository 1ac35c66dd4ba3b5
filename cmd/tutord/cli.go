package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tutord/tutord/internal/config"
)

// command is one subcommand of tutord.
type command struct {
	name    string
	usage   string // arguments, e.g. "up | down N | version"
	summary string
	run     func(ctx context.Context, e env, args []string) error
}

func commands() []command {
	return []command{
		{"serve", "", "run the HTTP and WebSocket server (the default command)", runServe},
		{"migrate", "up | down N | version | force V", "apply, roll back, show or force (after an interrupted one) database migrations", runMigrate},
		{"curriculum", "import PATH... | --out DIR export | approve KEY | unapprove KEY", "import, export or approve curriculum files", runCurriculum},
		{"llm-config", "list | set COMPONENT PROVIDER MODEL | reset COMPONENT", "show or set the provider and model of each component", runLLMConfig},
		{"check-answer", "--expected A [--kind K] REPLY|-", "judge a reply with the deterministic answer evaluator", runCheckAnswer},
		{"token", "--sub ID [--admin] [--ttl D] [--id]", "mint a development token signed with TUTORD_JWT_SECRET", runToken},
		{"eval", "run SUITE | import-mathdial FILE | leak-bench FILE | compare OLD NEW", "evaluate a tutord: scenario suites, MathDial replay, leak benchmark", runEval},
		{"bench", "[--duration D] [--learners N] [--rounds N] [--latency-learners N] [--idle N] [--json]", "measure a throwaway server: saturation beside pgbench, latency, memory per idle WebSocket", runBench},
		{"version", "", "print the version", runVersion},
	}
}

// run runs tutord with the given arguments (without the program name).
func run(ctx context.Context, args []string, environ map[string]string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := env{environ: environ, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			printUsage(stdout, environ)
			return errHelp
		}
		return runServe(ctx, e, args)
	}
	if args[0] == "help" {
		printUsage(stdout, environ)
		return errHelp
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	return usageError{fmt.Sprintf("unknown command %q; run tutord --help for the list", args[0])}
}

func printUsage(w io.Writer, environ map[string]string) {
	fmt.Fprintf(w, "tutord %s: a stateful tutoring service.\n\nUsage:\n  tutord [command] [flags] [arguments]\n\nCommands:\n", buildVersion())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	cmds := commands()
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.usage, c.summary)
	}
	tw.Flush()
	fmt.Fprint(w, "\nFlags of serve and of commands that use the database (each overrides its variable):\n")
	fs := flag.NewFlagSet("tutord", flag.ContinueOnError)
	defaults := defaultConfig(environ)
	addCommonFlags(fs, &defaults)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nSettings (environment variables):\n")
	config.Usage(tabwriter.NewWriter(w, 0, 4, 2, ' ', 0))
}

// addCommonFlags declares the flags that override the common settings.
func addCommonFlags(fs *flag.FlagSet, c *config.Config) {
	fs.StringVar(&c.Addr, "addr", c.Addr, "listen address (TUTORD_ADDR)")
	fs.StringVar(&c.DatabaseURL, "database-url", c.DatabaseURL, "PostgreSQL URL (TUTORD_DATABASE_URL)")
	fs.StringVar(&c.DataDir, "data-dir", c.DataDir, "data directory of the private cluster (TUTORD_DATA_DIR)")
	fs.BoolVar(&c.Migrate, "migrate", c.Migrate, "apply migrations at start (TUTORD_MIGRATE)")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error (TUTORD_LOG_LEVEL)")
	fs.StringVar(&c.LogFormat, "log-format", c.LogFormat, "auto, json or text (TUTORD_LOG_FORMAT)")
}

// defaultConfig is the configuration without any TUTORD_ setting: the
// built-in defaults on this machine (the data directory's follows
// XDG_DATA_HOME, HOME and the user).
func defaultConfig(environ map[string]string) config.Config {
	base := map[string]string{}
	for k, v := range environ {
		if !strings.HasPrefix(k, "TUTORD_") {
			base[k] = v
		}
	}
	cfg, _ := config.Load(base)
	return cfg
}

// loadConfig reads the configuration from the environment, applies the
// flags in args on top (before, between or after the arguments, as in
// "llm-config set tutor openai gpt-5.2 --effort low"; "--" ends them),
// validates the result, and returns the remaining arguments. --help
// prints the command's usage and flags, with their defaults.
func loadConfig(e env, name string, args []string, extra func(*flag.FlagSet)) (config.Config, []string, error) {
	if helpRequested(args) {
		printCommandUsage(e.stdout, e.environ, name, extra)
		return config.Config{}, nil, errHelp
	}
	cfg, err := config.Load(e.environ)
	if err != nil {
		return cfg, nil, err
	}
	fs := flag.NewFlagSet("tutord "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the error says what is wrong; --help is above
	addCommonFlags(fs, &cfg)
	if extra != nil {
		extra(fs)
	}
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return cfg, nil, usageError{err.Error() + "; run tutord " + name + " --help for its flags"}
		}
		after := fs.Args()
		if n := len(args) - len(after); n > 0 && args[n-1] == "--" {
			rest = append(rest, after...)
			break
		}
		if len(after) == 0 {
			break
		}
		rest, args = append(rest, after[0]), after[1:]
	}
	return cfg, rest, cfg.Validate()
}

// helpRequested reports whether args ask for help before any "--".
func helpRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// printCommandUsage prints a command's usage line and its flags with their
// defaults.
func printCommandUsage(w io.Writer, environ map[string]string, name string, extra func(*flag.FlagSet)) {
	for _, c := range commands() {
		if c.name == name {
			fmt.Fprintf(w, "Usage: tutord %s [flags] %s\n\n%s.\n\nFlags:\n", c.name, c.usage, c.summary)
		}
	}
	fs := flag.NewFlagSet("tutord "+name, flag.ContinueOnError)
	defaults := defaultConfig(environ)
	addCommonFlags(fs, &defaults)
	if extra != nil {
		extra(fs)
	}
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, "\nThe flags override their environment variables; tutord --help lists every variable.\n")
}

func runVersion(_ context.Context, e env, args []string) error {
	if len(args) > 0 {
		return usageError{"version takes no arguments"}
	}
	fmt.Fprintln(e.stdout, "tutord", buildVersion())
	return nil
}

// buildVersion is the version set at link time, else the module version or
// VCS revision recorded by the Go toolchain.
func buildVersion() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "dev-" + s.Value[:12]
		}
	}
	return "dev"
}
