package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

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
		{"curriculum", "import PATH... | export --out DIR | approve KEY | unapprove KEY", "import, export or approve curriculum files", runCurriculum},
		{"llm-config", "list | set COMPONENT PROVIDER MODEL | reset COMPONENT", "show or set the provider and model of each component", runLLMConfig},
		{"agent-logs", "purge [--older-than D]", "delete agent-log entries (model prompts, learners' messages) older than D", runAgentLogs},
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
		if c, ok := commandAfterFlags(args); ok {
			return usageError{fmt.Sprintf("flags go after the command: tutord %s [flags] ...; run tutord %s --help for its usage", c.name, c.name)}
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

// commandAfterFlags returns the command that follows the leading common
// flags of args, as in "tutord --database-url URL migrate up": without a
// command first, serve would take the command for its arguments.
func commandAfterFlags(args []string) (command, bool) {
	fs := flag.NewFlagSet("tutord", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var c config.Config
	addCommonFlags(fs, &c)
	if fs.Parse(args) != nil || fs.NArg() == 0 {
		return command{}, false
	}
	for _, c := range commands() {
		if c.name == fs.Arg(0) {
			return c, true
		}
	}
	return command{}, false
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
// validates the result, and returns the remaining arguments. extra
// declares the command's own flags; one that overrides a setting binds to
// its field of the config it is given, and names its variable in its
// usage, as the common flags do. --help prints the command's usage and
// flags, with their defaults.
//
// Validation comes after the flags: a flag overrides its variable, so a
// bad value in the environment that a flag replaces does not matter, even
// one that cannot be read.
func loadConfig(e env, name string, args []string, extra func(*flag.FlagSet, *config.Config)) (config.Config, []string, error) {
	if helpRequested(args) {
		var flags func(*flag.FlagSet)
		if extra != nil {
			defaults := defaultConfig(e.environ)
			flags = func(fs *flag.FlagSet) { extra(fs, &defaults) }
		}
		printCommandUsage(e.stdout, e.environ, name, true, flags)
		return config.Config{}, nil, errHelp
	}
	cfg, err := config.Parse(e.environ)
	if err != nil {
		return cfg, nil, err
	}
	fs := flag.NewFlagSet("tutord "+name, flag.ContinueOnError)
	addCommonFlags(fs, &cfg)
	if extra != nil {
		extra(fs, &cfg)
	}
	rest, err := parseFlags(fs, name, args)
	if err != nil {
		return cfg, nil, err
	}
	fs.Visit(func(f *flag.Flag) {
		if v := flagVariable(f); v != "" {
			cfg.Override(v)
		}
	})
	if err := cfg.Validate(); err != nil {
		return cfg, nil, flagError(fs, name, err)
	}
	// Validate leaves the URL to the database commands; a flag's is
	// checked here, to be named.
	if isSet(fs, "database-url") && cfg.DatabaseURL != "" {
		if _, err := pgxpool.ParseConfig(cfg.DatabaseURL); err != nil {
			return cfg, nil, usageError{"--database-url is malformed: " + cleanParseError(err)}
		}
	}
	return cfg, rest, nil
}

// flagError turns the error of a setting that a flag on the command line
// gave into a usage error naming the flag, found by the variable its usage
// names: the operator typed the flag, and may never have set the variable.
// The error of a setting the environment gave is returned as it is.
func flagError(fs *flag.FlagSet, name string, err error) error {
	variable, reason, _ := strings.Cut(err.Error(), ": ")
	given := ""
	fs.Visit(func(f *flag.Flag) {
		if flagVariable(f) == variable {
			given = f.Name
		}
	})
	if given == "" {
		return err
	}
	return usageError{fmt.Sprintf("--%s: %s; run tutord %s --help for its flags", given, reason, name)}
}

// flagVariable returns the variable that the flag f overrides, which its
// usage names in parentheses ("apply migrations at start
// (TUTORD_MIGRATE)"), or "" if it overrides none.
func flagVariable(f *flag.Flag) string {
	if m := usageVariable.FindStringSubmatch(f.Usage); m != nil {
		return m[1]
	}
	return ""
}

// usageVariable matches the variable a flag's usage names.
var usageVariable = regexp.MustCompile(`\((TUTORD_[A-Z0-9_]+)\)`)

// isSet reports whether the flag name was on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseFlags parses the flags of fs anywhere in args (a "--" ends them)
// and returns the other arguments. A bad flag is a usage error; the flag
// set prints nothing, as the error says what is wrong and --help the rest.
func parseFlags(fs *flag.FlagSet, name string, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{err.Error() + "; run tutord " + name + " --help for its flags"}
		}
		after := fs.Args()
		if n := len(args) - len(after); n > 0 && args[n-1] == "--" {
			return append(rest, after...), nil
		}
		if len(after) == 0 {
			return rest, nil
		}
		rest, args = append(rest, after[0]), after[1:]
	}
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
// defaults: the common ones, if the command takes them, and extra's.
func printCommandUsage(w io.Writer, environ map[string]string, name string, common bool, extra func(*flag.FlagSet)) {
	fs := flag.NewFlagSet("tutord "+name, flag.ContinueOnError)
	if common {
		defaults := defaultConfig(environ)
		addCommonFlags(fs, &defaults)
	}
	if extra != nil {
		extra(fs)
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	for _, c := range commands() {
		if c.name == name {
			line := []string{"tutord", c.name}
			if n > 0 {
				line = append(line, "[flags]")
			}
			if c.usage != "" {
				line = append(line, c.usage)
			}
			fmt.Fprintf(w, "Usage: %s\n\n%s.\n", strings.Join(line, " "), c.summary)
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprint(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	if common {
		fmt.Fprint(w, "\nThe flags override their environment variables; tutord --help lists every variable.\n")
	}
}

// durationFlag is a time.Duration flag whose error says what a duration
// looks like (the flag package says only "parse error").
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("not a duration such as 24h or 90m")
	}
	*d = durationFlag(v)
	return nil
}

func runVersion(_ context.Context, e env, args []string) error {
	if helpRequested(args) {
		printCommandUsage(e.stdout, e.environ, "version", false, nil)
		return errHelp
	}
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
