package config

import (
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"
)

func TestLoadDefaults(t *testing.T) {
	cfg, err := Load(map[string]string{"XDG_DATA_HOME": "/data"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != ":8080" || !cfg.Migrate || cfg.LogLevel != "info" || cfg.LogFormat != "auto" || cfg.ShutdownTimeout != 30*time.Second {
		t.Fatalf("defaults: %+v", cfg)
	}
	if cfg.AgentLogRetention != 0 || cfg.DBAcquireTimeout != 10*time.Second {
		t.Fatalf("agent logs kept %s, connections awaited %s; want kept forever, awaited 10s", cfg.AgentLogRetention, cfg.DBAcquireTimeout)
	}
	if cfg.DataDir != "/data/tutord" {
		t.Fatalf("DataDir = %q, want /data/tutord", cfg.DataDir)
	}
}

func TestLoadRejectsBadValues(t *testing.T) {
	tests := map[string]map[string]string{
		"TUTORD_LOG_LEVEL":           {"TUTORD_LOG_LEVEL": "loud"},
		"TUTORD_LOG_FORMAT":          {"TUTORD_LOG_FORMAT": "xml"},
		"TUTORD_SHUTDOWN_TIMEOUT":    {"TUTORD_SHUTDOWN_TIMEOUT": "soon"},
		"TUTORD_SHUTDOWN_DELAY":      {"TUTORD_SHUTDOWN_DELAY": "-1s"},
		"TUTORD_MIGRATE":             {"TUTORD_MIGRATE": "maybe"},
		"TUTORD_DB_MAX_CONNS":        {"TUTORD_DB_MAX_CONNS": "0"},
		"TUTORD_DB_CONNECT_TIMEOUT":  {"TUTORD_DB_CONNECT_TIMEOUT": "-1s"},
		"TUTORD_DB_ACQUIRE_TIMEOUT":  {"TUTORD_DB_ACQUIRE_TIMEOUT": "-1s"},
		"TUTORD_AGENT_LOG_RETENTION": {"TUTORD_AGENT_LOG_RETENTION": "-720h"},
		"TUTORD_TRUSTED_PROXIES":     {"TUTORD_TRUSTED_PROXIES": "10.0.0.0/8, proxy.internal"},
		"TUTORD_CORS_ORIGINS":        {"TUTORD_CORS_ORIGINS": " , "},
		"TUTORD_WS_PER_SESSION":      {"TUTORD_WS_PER_SESSION": "-1"},
		"TUTORD_WS_PER_CALLER":       {"TUTORD_WS_PER_CALLER": "-5"},
		"TUTORD_JWT_JWKS_URL":        {"TUTORD_JWT_JWKS_URL": "https://idp.example/.well-known/jwks.json", "TUTORD_JWT_ISSUER": "https://idp.example/"},
		"TUTORD_JWT_AUDIENCE":        {"TUTORD_JWT_JWKS_URL": "https://idp.example/.well-known/jwks.json", "TUTORD_JWT_ISSUER": "https://idp.example/", "TUTORD_JWT_AUDIENCE": " , "},
	}
	for name, environ := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Load(environ)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("err = %v; want one naming %s", err, name)
			}
		})
	}
}

// A value that cannot be read as its variable's type (a true/false, a
// duration, an integer) is not an error of Parse, which comes before the
// flags, but of Validate, which names the variable and the value; once a
// flag has given the setting (Override), the variable does not matter.
func TestOverrideForgivesAnUnreadableVariable(t *testing.T) {
	for _, tc := range []struct {
		variable, value string
		flag            func(*Config) // what the flag that overrides it does
	}{
		{"TUTORD_MIGRATE", "maybe", func(c *Config) { c.Migrate = false }},
		{"TUTORD_AGENT_LOG_RETENTION", "forever", func(c *Config) { c.AgentLogRetention = time.Hour }},
		{"TUTORD_DB_MAX_CONNS", "many", func(c *Config) { c.DBMaxConns = 5 }},
	} {
		t.Run(tc.variable, func(t *testing.T) {
			cfg, err := Parse(map[string]string{tc.variable: tc.value})
			if err != nil {
				t.Fatalf("Parse: %v; want the value left for Validate, after the flags", err)
			}
			if err := cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), tc.variable+": ") || !strings.Contains(err.Error(), `"`+tc.value+`"`) {
				t.Errorf("Validate without the flag: %v; want an error naming %s and %q", err, tc.variable, tc.value)
			}
			tc.flag(&cfg)
			cfg.Override(tc.variable)
			if err := cfg.Validate(); err != nil {
				t.Errorf("Validate once a flag gave %s: %v; want the flag's value accepted", tc.variable, err)
			}
		})
	}
	// Another variable's reading error stays.
	cfg, err := Parse(map[string]string{"TUTORD_MIGRATE": "maybe", "TUTORD_SHUTDOWN_TIMEOUT": "soon"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Override("TUTORD_MIGRATE")
	if err := cfg.Validate(); err == nil || strings.Contains(err.Error(), "TUTORD_MIGRATE") || !strings.Contains(err.Error(), "TUTORD_SHUTDOWN_TIMEOUT") {
		t.Errorf("TUTORD_SHUTDOWN_TIMEOUT=soon with TUTORD_MIGRATE overridden: %v; want TUTORD_SHUTDOWN_TIMEOUT reported, alone", err)
	}
}

// A speech-to-text key (or URL, or model) read from a file or a Kubernetes
// secret often ends in a newline: it is trimmed, as the model providers'
// keys are, rather than sent in a header Go refuses, which would fail
// every transcription as "service unavailable".
func TestSTTSettingsAreTrimmed(t *testing.T) {
	cfg, err := Load(map[string]string{
		"TUTORD_STT_BASE_URL":              " https://api.openai.com/v1\n",
		"TUTORD_STT_API_KEY":               "sk-stt\n",
		"TUTORD_STT_MODEL":                 "whisper-1\r\n",
		"TUTORD_OPENAI_COMPATIBLE_API_KEY": "sk-compat\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.STTBaseURL != "https://api.openai.com/v1" || cfg.STTAPIKey != "sk-stt" || cfg.STTModel != "whisper-1" || cfg.OpenAICompatibleAPIKey != "sk-compat" {
		t.Errorf("STT %q, %q, %q; compatible key %q: want them trimmed", cfg.STTBaseURL, cfg.STTAPIKey, cfg.STTModel, cfg.OpenAICompatibleAPIKey)
	}
}

// The token settings are trimmed too: an issuer or audience read with its
// newline matches no token ("Invalid issuer" for every learner), and a
// secret with it signs none that its issuer signed.
func TestJWTSettingsAreTrimmed(t *testing.T) {
	secret := strings.Repeat("s", 32)
	cfg, err := Load(map[string]string{
		"TUTORD_JWT_SECRET":      secret + "\n",
		"TUTORD_JWT_ISSUER":      "https://idp.example.com/pool\n",
		"TUTORD_JWT_AUDIENCE":    "tutord\r\n",
		"TUTORD_JWT_ADMIN_CLAIM": "role=admin\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.JWTSecret != secret || cfg.JWTIssuer != "https://idp.example.com/pool" || cfg.JWTAudience != "tutord" || cfg.JWTAdminClaim != "role=admin" {
		t.Errorf("secret %q, issuer %q, audience %q, admin claim %q: want them trimmed", cfg.JWTSecret, cfg.JWTIssuer, cfg.JWTAudience, cfg.JWTAdminClaim)
	}
}

func TestSecretsAreMaskedInLogs(t *testing.T) {
	cfg, err := Load(map[string]string{"TUTORD_DATABASE_URL": "postgres://app:hunter2@db:5432/tutord"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "config", cfg)
	if strings.Contains(b.String(), "hunter2") || !strings.Contains(b.String(), "app:***@db") {
		t.Fatalf("logged config: %s", b.String())
	}
}

// TestCredentialsInURLsAreMaskedInLogs: a password in a PostgreSQL URL's
// query (which pgx reads) and the credentials of other services' URLs are
// masked in the logged config too.
func TestCredentialsInURLsAreMaskedInLogs(t *testing.T) {
	cfg, err := Load(map[string]string{
		"TUTORD_DATABASE_URL":               "postgres://tutord@db:5432/tutord?sslmode=require&password=Db-Pass&sslpassword=Key-Pass",
		"TUTORD_STT_BASE_URL":               "https://whisper:Stt-Pass@stt.internal/v1",
		"TUTORD_OPENAI_COMPATIBLE_BASE_URL": "https://vllm:Compat-Pass@llm.internal/v1?user=a@b",
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("config", "config", cfg)
	for _, secret := range []string{"Db-Pass", "Key-Pass", "Stt-Pass", "Compat-Pass"} {
		if strings.Contains(b.String(), secret) {
			t.Errorf("the logged config shows %s: %s", secret, b.String())
		}
	}
	for _, kept := range []string{"sslmode=require&password=***&sslpassword=***", "whisper:***@stt.internal/v1", "vllm:***@llm.internal/v1?user=a@b"} {
		if !strings.Contains(b.String(), kept) {
			t.Errorf("the logged config lacks %q: %s", kept, b.String())
		}
	}
}

// TestPasswordsWithReservedCharactersAreMasked: a generated password often
// holds '#', '?', '/', '@' or ':' unencoded. The user info is then not where
// net/url would look for it, but pgx may still read a password there (or
// the URL fails to parse after being logged), so the redaction hides
// everything up to the last '@'. A keyword/value connection string is
// hidden whole.
func TestPasswordsWithReservedCharactersAreMasked(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://tutord:Xk#93secret@db:5432/tutord", "postgres://tutord:***@db:5432/tutord"},
		{"postgres://tutord:Xk?93secret@db:5432/tutord", "postgres://tutord:***@db:5432/tutord"},
		{"postgres://tutord:Xk/93secret@db:5432/tutord", "postgres://tutord:***@db:5432/tutord"},
		{"postgres://tutord:Xk@93secret@db/tutord", "postgres://tutord:***@db/tutord"},
		{"postgres://tutord:Xk@93/secret@db/tutord", "postgres://tutord:***@db/tutord"},
		{"postgres://tutord:Xk:93/sec#ret?x@db/tutord?sslmode=require", "postgres://tutord:***@db/tutord?sslmode=require"},
		{"postgres://tutord:1234#93secret@db/tutord", "postgres://tutord:***@db/tutord"},
		{"postgres://db/tutord?password=Xk#93secret&sslmode=require", "postgres://db/tutord?password=***&sslmode=require"},
		{"host=db user=tutord password=93secret dbname=tutord", "***"},
		{"host=db password='Xk://93secret@db' dbname=tutord", "***"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSettingsDocumentEveryField(t *testing.T) {
	for _, s := range Settings() {
		if s.Help == "" || !strings.HasPrefix(s.Env, "TUTORD_") {
			t.Errorf("setting %+v lacks help or the TUTORD_ prefix", s)
		}
	}
}

// The README's settings table is the reference operators read; it must
// name every variable tutord understands.
func TestREADMEListsEverySetting(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Settings() {
		if !strings.Contains(string(readme), "`"+s.Env+"`") {
			t.Errorf("README.md does not document %s", s.Env)
		}
	}
}

func TestTrustedProxies(t *testing.T) {
	tests := []struct {
		env  string
		want string
	}{
		{"", ""},
		{"10.0.0.0/8", "10.0.0.0/8"},
		{" 10.1.2.3/8 , ,192.0.2.7, 2001:db8::/32 ", "10.0.0.0/8,192.0.2.7/32,2001:db8::/32"},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			environ := map[string]string{}
			if tt.env != "" {
				environ["TUTORD_TRUSTED_PROXIES"] = tt.env
			}
			cfg, err := Load(environ)
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.TrustedProxies.String(); got != tt.want {
				t.Fatalf("TrustedProxies = %q, want %q", got, tt.want)
			}
		})
	}
}

// "8080" (the commonest slip), "localhost" or "localhost:99999" as the
// listen address is refused at once, not after the database has started.
func TestAddrNeedsAPort(t *testing.T) {
	for _, addr := range []string{"8080", "localhost", "localhost:99999"} {
		_, err := Load(map[string]string{"TUTORD_ADDR": addr})
		if err == nil || !strings.Contains(err.Error(), "TUTORD_ADDR") {
			t.Errorf("TUTORD_ADDR=%q: err = %v; want one naming TUTORD_ADDR", addr, err)
		}
	}
}

// A rate or burst out of range is refused naming its own variable.
func TestRateErrorsNameTheirVariable(t *testing.T) {
	for name, value := range map[string]string{"TUTORD_TURN_BURST": "0", "TUTORD_CREATE_BURST": "0", "TUTORD_TURN_RATE": "NaN", "TUTORD_CREATE_RATE": "-1"} {
		_, err := Load(map[string]string{name: value})
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: err = %v; want one naming %s", name, value, err, name)
		}
	}
}

// A browser's Origin header never ends in "/": an origin configured with
// one (copied from the address bar) is accepted, and the server drops it
// before comparing (TestCORSOriginList in httpapi), rather than refused at
// start-up. A path, or more than one "/", is still refused.
func TestCORSOriginTrailingSlash(t *testing.T) {
	if _, err := Load(map[string]string{"TUTORD_CORS_ORIGINS": "https://app.example.com/, http://localhost:5173/ ,https://b.example.com"}); err != nil {
		t.Fatalf("origins with a trailing slash: %v", err)
	}
	for _, o := range []string{"https://app.example.com//", "https://app.example.com/app", "https://app.example.com/app/"} {
		if _, err := Load(map[string]string{"TUTORD_CORS_ORIGINS": o}); err == nil || !strings.Contains(err.Error(), "TUTORD_CORS_ORIGINS") {
			t.Errorf("TUTORD_CORS_ORIGINS=%s: err = %v; want one naming TUTORD_CORS_ORIGINS", o, err)
		}
	}
}

// An origin is compared with the browser's Origin header exactly:
// "app.example.com" would never match, so it is refused.
func TestCORSOriginNeedsAScheme(t *testing.T) {
	_, err := Load(map[string]string{"TUTORD_CORS_ORIGINS": "app.example.com"})
	if err == nil || !strings.Contains(err.Error(), "TUTORD_CORS_ORIGINS") {
		t.Fatalf("TUTORD_CORS_ORIGINS=app.example.com: err = %v; want one naming TUTORD_CORS_ORIGINS (a browser sends https://app.example.com)", err)
	}
	if _, err := Load(map[string]string{"TUTORD_CORS_ORIGINS": "https://app.example.com, http://localhost:5173"}); err != nil {
		t.Errorf("two origins: %v", err)
	}
}
