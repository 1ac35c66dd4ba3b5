// Package config reads tutord's settings from TUTORD_* environment
// variables (and the flags that override the common ones), validates them
// once, and describes them for --help.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/caarlos0/env/v11"
)

// Config is tutord's configuration. Each field's `help` tag documents it;
// --help prints them with their variables and defaults.
type Config struct {
	Addr             string        `env:"TUTORD_ADDR" envDefault:":8080" help:"listen address of the HTTP server"`
	DatabaseURL      string        `env:"TUTORD_DATABASE_URL" help:"PostgreSQL URL; empty starts a private cluster in TUTORD_DATA_DIR" secret:"true"`
	DataDir          string        `env:"TUTORD_DATA_DIR" help:"directory of the private PostgreSQL cluster (default $XDG_DATA_HOME/tutord, else ~/.local/share/tutord; /var/lib/tutord for root)"`
	Migrate          bool          `env:"TUTORD_MIGRATE" envDefault:"true" help:"apply database migrations at start"`
	LogLevel         string        `env:"TUTORD_LOG_LEVEL" envDefault:"info" help:"debug, info, warn or error"`
	LogFormat        string        `env:"TUTORD_LOG_FORMAT" envDefault:"auto" help:"json, text, or auto (text on a terminal, JSON otherwise)"`
	ShutdownTimeout  time.Duration `env:"TUTORD_SHUTDOWN_TIMEOUT" envDefault:"30s" help:"how long shutdown waits for in-flight requests and turns"`
	ShutdownDelay    time.Duration `env:"TUTORD_SHUTDOWN_DELAY" envDefault:"0s" help:"how long tutord goes on serving after SIGTERM, /readyz answering 503, before it stops taking requests: time for a load balancer to stop sending them"`
	DBConnectTimeout time.Duration `env:"TUTORD_DB_CONNECT_TIMEOUT" envDefault:"10s" help:"how long start-up waits for the database to answer, and migrating for a migration lock another process holds"`
	DBMaxConns       int32         `env:"TUTORD_DB_MAX_CONNS" envDefault:"20" help:"maximum connections in the database pool"`
	DBAcquireTimeout time.Duration `env:"TUTORD_DB_ACQUIRE_TIMEOUT" envDefault:"10s" help:"how long a request waits for a free connection of the pool before failing with 503 database_busy (0: as long as its client waits)"`
	ReplicaSync      bool          `env:"TUTORD_REPLICA_SYNC" envDefault:"false" help:"set when several tutord processes share the database: each announces its sessions' changes (PostgreSQL NOTIFY) and updates its WebSockets on the others'"`
	CurriculumDir    string        `env:"TUTORD_CURRICULUM_DIR" help:"curriculum YAML files imported at start (idempotent); a directory without any stops the start"`
	LoadSample       string        `env:"TUTORD_LOAD_SAMPLE" envDefault:"auto" help:"import the shipped sample curriculum at start: true, false, or auto (with the embedded database and no TUTORD_CURRICULUM_DIR)"`

	AllowAnonymous     bool          `env:"TUTORD_ALLOW_ANONYMOUS" envDefault:"true" help:"allow sessions without a token (a development default; set false in production)"`
	AnonymousRetention time.Duration `env:"TUTORD_ANONYMOUS_RETENTION" envDefault:"720h" help:"delete anonymous sessions idle this long"`
	AgentLogRetention  time.Duration `env:"TUTORD_AGENT_LOG_RETENTION" envDefault:"0s" help:"delete agent-log entries (model prompts, with the learners' messages) older than this, at start and hourly (0: keep them)"`
	CORSOrigins        []string      `env:"TUTORD_CORS_ORIGINS" envDefault:"*" envSeparator:"," help:"allowed browser origins, comma-separated (* is a development default)"`
	TrustedProxies     Prefixes      `env:"TUTORD_TRUSTED_PROXIES" help:"reverse proxies whose X-Forwarded-For names the client address, comma-separated CIDRs; empty: the peer address is the client's"`
	MetricsToken       string        `env:"TUTORD_METRICS_TOKEN" help:"bearer token GET /metrics requires (Prometheus authorization credentials); empty: /metrics is open" secret:"true"`
	MaxReplyChars      int           `env:"TUTORD_MAX_REPLY_CHARS" envDefault:"4000" help:"longest learner message accepted (413 beyond)"`
	TurnRate           float64       `env:"TUTORD_TURN_RATE" envDefault:"2" help:"turns per second per learner (or client address), sustained; 0 disables"`
	TurnBurst          int           `env:"TUTORD_TURN_BURST" envDefault:"20" help:"turns a learner may send in a burst"`
	CreateRate         float64       `env:"TUTORD_CREATE_RATE" envDefault:"0.5" help:"session creations per second per learner (or client address); 0 disables"`
	CreateBurst        int           `env:"TUTORD_CREATE_BURST" envDefault:"20" help:"session creations in a burst"`
	WSPerSession       int           `env:"TUTORD_WS_PER_SESSION" envDefault:"20" help:"WebSockets open at once on one session (429 beyond); 0: no limit"`
	WSPerCaller        int           `env:"TUTORD_WS_PER_CALLER" envDefault:"100" help:"WebSockets a learner (or client address) holds open at once (429 beyond); 0: no limit"`
	SessionTimeLimit   time.Duration `env:"TUTORD_SESSION_TIME_LIMIT" envDefault:"0s" help:"end a sitting this long after its first turn (0: off; 25m suits voice)"`

	JWTSecret     string        `env:"TUTORD_JWT_SECRET" help:"HS256 secret that signs access and ID tokens (32 bytes or more)" secret:"true"`
	JWTJWKSURL    string        `env:"TUTORD_JWT_JWKS_URL" help:"JWKS URL of an identity provider (Cognito, Auth0, Keycloak)" url:"true"`
	JWTIssuer     string        `env:"TUTORD_JWT_ISSUER" help:"required token issuer (iss); empty: not checked (required with TUTORD_JWT_JWKS_URL)"`
	JWTAudience   string        `env:"TUTORD_JWT_AUDIENCE" help:"required audience (aud, or client_id of access tokens), or several, comma-separated, any of which will do; empty: not checked (required with TUTORD_JWT_JWKS_URL)"`
	JWTLeeway     time.Duration `env:"TUTORD_JWT_LEEWAY" envDefault:"30s" help:"clock skew allowed on token times"`
	JWTAdminClaim string        `env:"TUTORD_JWT_ADMIN_CLAIM" envDefault:"role=admin" help:"claim=value that makes a caller an admin (lists match a member)"`

	STTBaseURL string        `env:"TUTORD_STT_BASE_URL" help:"Whisper-compatible speech-to-text server, e.g. https://api.openai.com/v1" url:"true"`
	STTAPIKey  string        `env:"TUTORD_STT_API_KEY" help:"API key of the speech-to-text server" secret:"true"`
	STTModel   string        `env:"TUTORD_STT_MODEL" envDefault:"whisper-1" help:"speech-to-text model"`
	STTTimeout time.Duration `env:"TUTORD_STT_TIMEOUT" envDefault:"60s" help:"speech-to-text request timeout"`

	DailyBudgetUSD          float64 `env:"TUTORD_DAILY_BUDGET_USD" envDefault:"0" help:"model spend allowed per learner per UTC day, and to anonymous sessions together (0: no limit)"`
	LLMPrices               string  `env:"TUTORD_LLM_PRICES" help:"JSON price table overriding the built-in per-model prices"`
	OpenAICompatibleBaseURL string  `env:"TUTORD_OPENAI_COMPATIBLE_BASE_URL" help:"base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter)" url:"true"`
	OpenAICompatibleAPIKey  string  `env:"TUTORD_OPENAI_COMPATIBLE_API_KEY" help:"API key of the OpenAI-compatible server, if it needs one" secret:"true"`

	// unread holds, in the order of the fields, the variables whose values
	// Parse could not read (TUTORD_MIGRATE=maybe), for Validate to report
	// once the flags have applied: a flag that gives the setting removes
	// its variable's (Override).
	unread []readError
}

// readError is a variable's value that Parse could not read.
type readError struct {
	variable string
	err      error
}

// Load parses the environment (a map, so that tests pass their own) into a
// Config and validates it.
func Load(environ map[string]string) (Config, error) {
	cfg, err := Parse(environ)
	if err != nil {
		return Config{}, err
	}
	return cfg, cfg.Validate()
}

// Parse parses the environment into a Config without validating it, so that
// flags can replace the values they override before [Config.Validate]
// checks the result: a bad variable that a flag overrides does not matter.
// A value that cannot even be read, such as TUTORD_MIGRATE=maybe, is no
// error here either: Validate reports it, unless [Config.Override] has
// recorded that a flag gave the setting.
func Parse(environ map[string]string) (Config, error) {
	cfg, err := env.ParseAsWithOptions[Config](env.Options{Environment: environ})
	if err != nil {
		if cfg.unread, err = unreadVariables(err); err != nil {
			return Config{}, err
		}
	}
	if cfg.DataDir == "" {
		cfg.DataDir = DefaultDataDir(environ)
	}
	// As the model providers' keys are read (llm.SettingsFromEnv): a value
	// from a file or a Kubernetes secret often ends in a newline, which an
	// HTTP header cannot carry, and no token's issuer or audience holds.
	for _, v := range []*string{&cfg.STTBaseURL, &cfg.STTAPIKey, &cfg.STTModel, &cfg.OpenAICompatibleBaseURL, &cfg.OpenAICompatibleAPIKey,
		&cfg.JWTSecret, &cfg.JWTJWKSURL, &cfg.JWTIssuer, &cfg.JWTAudience, &cfg.JWTAdminClaim} {
		*v = strings.TrimSpace(*v)
	}
	return cfg, nil
}

// Override records that a flag on the command line gave the setting of
// variable: the variable's value, even one Parse could not read, then does
// not matter, and Validate checks the flag's.
func (c *Config) Override(variable string) {
	// A copy of the list: a copy of c made before keeps its own.
	c.unread = slices.DeleteFunc(slices.Clone(c.unread), func(r readError) bool { return r.variable == variable })
}

// unreadVariables returns the variables whose values the env library's
// error says it could not read, with its reason for each; an error of any
// other kind it returns as one line.
func unreadVariables(err error) ([]readError, error) {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return nil, cleanEnvError(err)
	}
	unread := make([]readError, len(agg.Errors))
	for i, e := range agg.Errors {
		var pe env.ParseError
		if !errors.As(e, &pe) {
			return nil, cleanEnvError(err)
		}
		f, ok := reflect.TypeFor[Config]().FieldByName(pe.Name)
		if !ok {
			return nil, cleanEnvError(err)
		}
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		unread[i] = readError{name, pe.Err}
	}
	return unread, nil
}

// cleanEnvError turns the env library's aggregate error into one line.
func cleanEnvError(err error) error {
	var agg env.AggregateError
	if errors.As(err, &agg) {
		msgs := make([]string, len(agg.Errors))
		for i, e := range agg.Errors {
			msgs[i] = e.Error()
			var pe env.ParseError
			if errors.As(e, &pe) {
				if f, ok := reflect.TypeFor[Config]().FieldByName(pe.Name); ok {
					name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
					msgs[i] = fmt.Sprintf("%s: %v", name, pe.Err)
				}
			}
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	return fmt.Errorf("configuration: %w", err)
}

// checkAddr checks a listen address: host:port, the host optional.
func checkAddr(addr string) error {
	if addr == "" {
		return errors.New("TUTORD_ADDR: empty listen address")
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		if _, digits := strconv.Atoi(addr); digits == nil {
			return fmt.Errorf("TUTORD_ADDR: %q is not host:port; for a port alone write :%s", addr, addr)
		}
		return fmt.Errorf("TUTORD_ADDR: %q is not host:port, such as :8080 or 127.0.0.1:8080", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("TUTORD_ADDR: %q has no port number from 0 to 65535", addr)
	}
	return nil
}

// checkOrigin checks an allowed browser origin: "*", or scheme://host[:port]
// as a browser sends it, which the Origin header is compared with exactly.
// Spaces around it and one trailing "/" are allowed, and dropped by the
// server (httpapi's newOrigins): "https://app.example.com/", as copied
// from the address bar, means the origin the browser sends without it.
func checkOrigin(o string) error {
	o = strings.TrimSuffix(strings.TrimSpace(o), "/")
	if o == "" || o == "*" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return fmt.Errorf("TUTORD_CORS_ORIGINS: %q is not an origin such as https://app.example.com (scheme and host, no path)", o)
	}
	return nil
}

// Validate reports the variables whose values Parse could not read, else
// the first invalid setting.
func (c Config) Validate() error {
	if len(c.unread) > 0 {
		msgs := make([]string, len(c.unread))
		for i, r := range c.unread {
			msgs[i] = fmt.Sprintf("%s: %v", r.variable, r.err)
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	if _, err := ParseLevel(c.LogLevel); err != nil {
		return err
	}
	switch c.LogFormat {
	case "auto", "json", "text":
	default:
		return fmt.Errorf("TUTORD_LOG_FORMAT: %q is not one of auto, json, text", c.LogFormat)
	}
	if err := checkAddr(c.Addr); err != nil {
		return err
	}
	if c.ShutdownDelay < 0 {
		return fmt.Errorf("TUTORD_SHUTDOWN_DELAY: must not be negative, got %s", c.ShutdownDelay)
	}
	if c.ShutdownTimeout <= 0 {
		return fmt.Errorf("TUTORD_SHUTDOWN_TIMEOUT: must be positive, got %s", c.ShutdownTimeout)
	}
	if c.DBConnectTimeout <= 0 {
		return fmt.Errorf("TUTORD_DB_CONNECT_TIMEOUT: must be positive, got %s", c.DBConnectTimeout)
	}
	if c.MaxReplyChars < 1 {
		return fmt.Errorf("TUTORD_MAX_REPLY_CHARS: must be at least 1, got %d", c.MaxReplyChars)
	}
	for _, r := range []struct {
		name  string
		rate  float64
		burst string
		b     int
	}{{"TUTORD_TURN_RATE", c.TurnRate, "TUTORD_TURN_BURST", c.TurnBurst}, {"TUTORD_CREATE_RATE", c.CreateRate, "TUTORD_CREATE_BURST", c.CreateBurst}} {
		if r.rate < 0 || math.IsNaN(r.rate) || math.IsInf(r.rate, 0) {
			return fmt.Errorf("%s: must be a number of at least 0 (0: no limit), got %v", r.name, r.rate)
		}
		if r.b < 1 {
			return fmt.Errorf("%s: must be at least 1, got %d", r.burst, r.b)
		}
	}
	if c.WSPerSession < 0 || c.WSPerCaller < 0 {
		return errors.New("TUTORD_WS_PER_SESSION / TUTORD_WS_PER_CALLER must not be negative (0: no limit)")
	}
	if c.SessionTimeLimit < 0 || c.AnonymousRetention <= 0 {
		return errors.New("TUTORD_SESSION_TIME_LIMIT must not be negative and TUTORD_ANONYMOUS_RETENTION must be positive")
	}
	if c.AgentLogRetention < 0 {
		return fmt.Errorf("TUTORD_AGENT_LOG_RETENTION: must not be negative (0: keep agent logs), got %s", c.AgentLogRetention)
	}
	if c.DBAcquireTimeout < 0 {
		return fmt.Errorf("TUTORD_DB_ACQUIRE_TIMEOUT: must not be negative (0: no bound), got %s", c.DBAcquireTimeout)
	}
	if c.DailyBudgetUSD < 0 {
		return fmt.Errorf("TUTORD_DAILY_BUDGET_USD: must not be negative, got %v", c.DailyBudgetUSD)
	}
	if !slices.ContainsFunc(c.CORSOrigins, func(o string) bool { return strings.TrimSpace(o) != "" }) {
		return errors.New("TUTORD_CORS_ORIGINS: empty; use * to allow any origin")
	}
	for _, o := range c.CORSOrigins {
		if err := checkOrigin(o); err != nil {
			return err
		}
	}
	switch c.LoadSample {
	case "auto", "true", "false":
	default:
		return fmt.Errorf("TUTORD_LOAD_SAMPLE: %q is not one of auto, true, false", c.LoadSample)
	}
	if c.DBMaxConns < 1 {
		return fmt.Errorf("TUTORD_DB_MAX_CONNS: must be at least 1, got %d", c.DBMaxConns)
	}
	// An identity provider signs tokens for every application it serves:
	// without both checks, any of them would open tutord.
	if c.JWTJWKSURL != "" && (c.JWTIssuer == "" || c.JWTAudience == "") {
		return errors.New("TUTORD_JWT_JWKS_URL: set TUTORD_JWT_ISSUER and TUTORD_JWT_AUDIENCE too, or tokens the provider issues for other applications are accepted")
	}
	// A list of empty entries (a template joining two missing values)
	// names no audience, and would check none.
	if c.JWTJWKSURL != "" && !slices.ContainsFunc(strings.Split(c.JWTAudience, ","), func(a string) bool { return strings.TrimSpace(a) != "" }) {
		return fmt.Errorf("TUTORD_JWT_AUDIENCE: %q names no audience; with TUTORD_JWT_JWKS_URL it must name this application's client id (several comma-separated), or tokens the provider issues for other applications are accepted", c.JWTAudience)
	}
	return nil
}

// Prefixes is a comma-separated list of network prefixes in CIDR notation
// ("10.0.0.0/8, 2001:db8::/32"); a bare address stands for itself alone.
// Spaces around entries and empty entries are ignored.
type Prefixes []netip.Prefix

// UnmarshalText parses the list.
func (p *Prefixes) UnmarshalText(text []byte) error {
	var out Prefixes
	for _, s := range strings.Split(string(text), ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if pre, err := netip.ParsePrefix(s); err == nil {
			if a := pre.Addr(); a.Is4In6() && pre.Bits() >= 96 {
				pre = netip.PrefixFrom(a.Unmap(), pre.Bits()-96)
			}
			out = append(out, pre.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return fmt.Errorf("%q is neither a CIDR prefix nor an address", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	*p = out
	return nil
}

// String returns the list as it is written in the environment.
func (p Prefixes) String() string {
	s := make([]string, len(p))
	for i, pre := range p {
		s[i] = pre.String()
	}
	return strings.Join(s, ",")
}

// ParseLevel parses a log level name.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("TUTORD_LOG_LEVEL: %q is not one of debug, info, warn, error", s)
	}
	return l, nil
}

// DefaultDataDir returns $XDG_DATA_HOME/tutord, else ~/.local/share/tutord.
// For root it returns /var/lib/tutord: the server then runs as an
// unprivileged account, which cannot enter root's home.
func DefaultDataDir(environ map[string]string) string {
	if xdg := environ["XDG_DATA_HOME"]; xdg != "" {
		return filepath.Join(xdg, "tutord")
	}
	if os.Geteuid() == 0 {
		return "/var/lib/tutord"
	}
	home := environ["HOME"]
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".local", "share", "tutord")
}

// Environ returns the process environment as a map.
func Environ() map[string]string {
	m := make(map[string]string)
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// Setting describes one configuration variable.
type Setting struct {
	Env     string
	Default string
	Help    string
	Secret  bool
}

// Settings lists every setting of Config in declaration order.
func Settings() []Setting {
	t := reflect.TypeFor[Config]()
	out := make([]Setting, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			continue
		}
		out = append(out, Setting{Env: name, Default: f.Tag.Get("envDefault"), Help: f.Tag.Get("help"), Secret: f.Tag.Get("secret") == "true"})
	}
	return out
}

// Usage writes the settings table that --help shows.
func Usage(w *tabwriter.Writer) {
	fmt.Fprintln(w, "VARIABLE\tDEFAULT\tMEANING")
	for _, s := range Settings() {
		def := s.Default
		if def == "" {
			def = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", s.Env, def, s.Help)
	}
	w.Flush()
}

// LogValue masks secrets, so that logging the config never prints them.
func (c Config) LogValue() slog.Value {
	v := reflect.ValueOf(c)
	t := v.Type()
	attrs := make([]slog.Attr, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if name == "" {
			continue
		}
		val := fmt.Sprint(v.Field(i).Interface())
		switch {
		case val == "":
		case f.Tag.Get("secret") == "true":
			val = Redact(val)
		case f.Tag.Get("url") == "true":
			val = redactURL(val) // a service's URL may carry its credentials
		}
		attrs = append(attrs, slog.String(name, val))
	}
	return slog.GroupValue(attrs...)
}

// Redact hides the passwords of a URL-shaped secret (see redactURL) and any
// other secret whole: a keyword/value connection string (host=db
// password=...) included.
func Redact(s string) string {
	if urlScheme.MatchString(s) {
		return redactURL(s)
	}
	return "***"
}

// redactURL hides the passwords a URL holds: in its user info, and as a
// password or sslpassword query parameter, which PostgreSQL URLs take too.
func redactURL(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	head, rest := s[:i+3], s[i+3:]
	if at := userInfoEnd(rest); at >= 0 {
		if colon := strings.IndexByte(rest[:at], ':'); colon >= 0 {
			rest = rest[:colon] + ":***" + rest[at:]
		}
	}
	return head + queryPassword.ReplaceAllString(rest, "${1}***")
}

// userInfoEnd returns the index of the '@' that ends the user info of rest,
// a URL after its "://", or -1 when it has none. net/url looks for that '@'
// up to the first '/', '?' or '#', pgx and libpq up to the first '/'; when
// they agree on one and no '@' follows it before the query, it is that
// one. A password holding any of those characters (or an '@') unencoded
// makes them disagree, or both miss it though an '@' follows, or both stop
// at an '@' inside it ("p@ss/word@db"): then the user info is taken to end
// at the last '@', which hides the password whatever it holds, and at
// worst more.
func userInfoEnd(rest string) int {
	authority := rest
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		authority = rest[:end]
	}
	std, pg := strings.LastIndexByte(authority, '@'), -1
	if end := strings.IndexAny(rest, "@/"); end >= 0 && rest[end] == '@' {
		pg = end
	}
	if std >= 0 && std == pg {
		path := rest[std+1:]
		if q := strings.IndexAny(path, "?#"); q >= 0 {
			path = path[:q] // an '@' in the query is no password's ("?user=a@b")
		}
		if !strings.Contains(path, "@") {
			return std
		}
	}
	return strings.LastIndexByte(rest, '@')
}

// urlScheme matches the start of a URL, its scheme.
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// queryPassword matches a password query parameter's value, up to the next
// parameter: a '#' in it is the password's (pgx has no fragments).
var queryPassword = regexp.MustCompile(`(?i)([?&](?:ssl)?password=)[^&]*`)
