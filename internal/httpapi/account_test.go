package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/stt"
)

func TestProfileAndSignIn(t *testing.T) {
	s := newServer(t)
	idTok, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "cog-1", TokenUse: "id", ClientID: "tutord-test", TTL: time.Hour, Email: "asha@example.com", Name: "Asha"})
	if err != nil {
		t.Fatal(err)
	}
	r := s.do("POST", "/auth/sync", nil, idTok)
	if m := r.JSON(t); r.Status != 200 || m["email"] != "asha@example.com" || m["onboarding_complete"] != false || m["auth_provider"] != "email" {
		t.Fatalf("sync: %d %s", r.Status, r.Body)
	}
	access := token(t, "cog-1", false)
	if r := s.do("POST", "/auth/sync", nil, access); r.Status != 401 {
		t.Fatalf("sync with an access token: %d", r.Status)
	}
	if r := s.do("POST", "/auth/sync", nil, ""); r.Status != 401 {
		t.Fatalf("sync without a token: %d", r.Status)
	}
	// The onboarding wizard sends one field at a time.
	for _, f := range []map[string]any{{"name": "Asha"}, {"age": 12}, {"grade": 7}, {"board": "CBSE"}} {
		r = s.do("PUT", "/profile", f, access)
		if r.Status != 200 {
			t.Fatalf("put %v: %d %s", f, r.Status, r.Body)
		}
	}
	if r.JSON(t)["onboarding_complete"] != true {
		t.Fatalf("onboarding not complete: %s", r.Body)
	}
	for _, bad := range []map[string]any{{"age": "twelve"}, {"grade": 13}, {"time_zone": "Mars/Olympus"}, {"language_level": "expert"}, {"nickname": "x"}} {
		if r := s.do("PUT", "/profile", bad, access); r.Status != 422 {
			t.Errorf("put %v: %d, want 422", bad, r.Status)
		}
	}
	if m := s.do("GET", "/profile", nil, access).JSON(t); m["grade"] != float64(7) || m["name"] != "Asha" {
		t.Fatalf("profile: %v", m)
	}
	// A session created by a learner with a profile uses it.
	id := s.newSession(fractions, "", access)
	doc := s.do("GET", "/sessions/"+id, nil, access).JSON(t)
	if sc := doc["student_context"].(map[string]any); sc["student_name"] != "Asha" || sc["grade"] != float64(7) || sc["language_level"] != "standard" {
		t.Fatalf("student context %v", sc)
	}
	r = s.do("GET", "/profile/export", nil, access)
	m := r.JSON(t)
	if r.Status != 200 || len(m["sessions"].([]any)) != 1 || m["profile"].(map[string]any)["name"] != "Asha" {
		t.Fatalf("export: %d %s", r.Status, truncate(r.Body, 500))
	}
	if r := s.do("GET", "/profile", nil, ""); r.Status != 401 {
		t.Fatalf("anonymous profile: %d", r.Status)
	}
	if r := s.do("POST", "/auth/phone/provision", map[string]any{"phone": "+919999999999"}, ""); r.Status != 200 || !strings.Contains(string(r.Body), `"ok"`) {
		t.Fatalf("provision: %d %s", r.Status, r.Body)
	}
}

// recordUsage stores a model call's usage as the LLM client does: the
// rules engine of these tests makes none.
func recordUsage(t *testing.T, s *apiServer, learner, session string, cost float64) {
	t.Helper()
	err := s.st.RecordUsage(context.Background(), llm.UsageRecord{Time: time.Now(), LearnerID: learner, SessionID: session,
		Component: llm.ComponentTutor, Provider: llm.ProviderOpenAI, Model: "gpt-5.2", Attempts: 1, Latency: 1200 * time.Millisecond,
		Usage: llm.Usage{InputTokens: 900, OutputTokens: 120}, CostUSD: cost, Priced: true, PromptHash: "sha256:feedface"})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDeleteLearnerRemovesEveryRow(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	tok := token(t, "doomed", false)
	id := s.newSession(fractions, "", tok)
	s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ready"}, tok)
	l, err := s.st.LearnerByExternalID(ctx, "doomed")
	if err != nil {
		t.Fatal(err)
	}
	learner := l.ID.String()
	recordUsage(t, s, learner, id, 0.01) // a call of the session
	recordUsage(t, s, learner, "", 0.02) // a call outside any session
	recordUsage(t, s, "", id, 0.03)      // a call of the session recorded without the learner
	// Another learner's rows stay.
	keepTok := token(t, "kept", false)
	keep := s.newSession(fractions, "", keepTok)
	kept, _ := s.st.LearnerByExternalID(ctx, "kept")
	recordUsage(t, s, kept.ID.String(), keep, 0.04)

	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=doomed", nil, tok); r.Status != 403 {
		t.Fatalf("non-admin delete: %d", r.Status)
	}
	admin := token(t, "root", true)
	r := s.do("DELETE", "/auth/admin/user?cognito_sub=doomed", nil, admin)
	if r.Status != 200 || !strings.Contains(string(r.Body), `"deleted"`) {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	count := func(q string, arg string) int {
		t.Helper()
		var n int
		if err := s.st.Pool().QueryRow(ctx, q, arg).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	for _, table := range []string{"sessions", "session_messages", "session_turns", "agent_logs", "llm_usage"} {
		col := "session_id"
		if table == "sessions" {
			col = "id"
		}
		if n := count(`SELECT count(*) FROM `+table+` WHERE `+col+`::text = $1`, id); n != 0 {
			t.Errorf("%s still has %d rows of the deleted learner's session", table, n)
		}
	}
	for _, table := range []string{"sessions", "llm_usage"} {
		if n := count(`SELECT count(*) FROM `+table+` WHERE learner_id::text = $1`, learner); n != 0 {
			t.Errorf("%s still has %d rows of the deleted learner", table, n)
		}
	}
	if n := count(`SELECT count(*) FROM learners WHERE id::text = $1 OR external_id = 'doomed'`, learner); n != 0 {
		t.Errorf("the learner's own row is still there")
	}
	if n := count(`SELECT count(*) FROM llm_usage WHERE session_id::text = $1`, keep); n != 1 {
		t.Errorf("another learner's usage rows: %d, want 1", n)
	}
	if r := s.do("GET", "/sessions/"+keep, nil, keepTok); r.Status != 200 {
		t.Errorf("another learner's session: %d", r.Status)
	}
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=doomed", nil, admin); r.Status != 404 || r.code(t) != "user_not_found" {
		t.Fatalf("second delete: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", "/auth/admin/user", nil, admin); r.Status != 422 || r.code(t) != "validation_error" || !strings.Contains(string(r.Body), "cognito_sub") {
		t.Fatalf("delete without cognito_sub: %d %s", r.Status, r.Body)
	}
}

// TestProfileExportHasAllData: the export holds a row of every table that
// holds the learner's data, and for a learner leaves out what could give
// an answer away.
func TestProfileExportHasAllData(t *testing.T) {
	s := newServer(t)
	tok := token(t, "exporter", false)
	id := s.newSession(fractions, "", tok)
	for _, msg := range []string{"ready", "ok"} {
		s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": msg}, tok, "Idempotency-Key", "k-"+msg)
	}
	l, err := s.st.LearnerByExternalID(context.Background(), "exporter")
	if err != nil {
		t.Fatal(err)
	}
	recordUsage(t, s, l.ID.String(), id, 0.01)
	recordUsage(t, s, l.ID.String(), "", 0.02)
	recordUsage(t, s, "", id, 0.03)
	other := token(t, "bystander", false)
	otherID := s.newSession(fractions, "", other)
	bystander, _ := s.st.LearnerByExternalID(context.Background(), "bystander")
	recordUsage(t, s, bystander.ID.String(), otherID, 0.5)

	export := func(tok string) map[string]any {
		t.Helper()
		r := s.do("GET", "/profile/export", nil, tok)
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %s", r.Status, truncate(r.Body, 300))
		}
		return r.JSON(t)
	}
	m := export(tok)
	sessions := m["sessions"].([]any)
	if len(sessions) != 1 {
		t.Fatalf("%d sessions exported, want 1", len(sessions))
	}
	se := sessions[0].(map[string]any)
	if se["session_id"] != id || se["guideline_id"] != s.subject[fractions].String() {
		t.Fatalf("session %v", se["session_id"])
	}
	if msgs := se["messages"].([]any); len(msgs) != 5 {
		t.Errorf("%d messages, want 5 (the welcome and two turns)", len(msgs))
	}
	turns := se["turns"].([]any)
	if len(turns) != 2 || turns[0].(map[string]any)["client_turn_id"] != "k-ready" || turns[0].(map[string]any)["response"].(map[string]any)["next_turn"] == nil {
		t.Errorf("turns %v", turns)
	}
	logs := se["agent_logs"].([]any)
	if len(logs) < 4 {
		t.Errorf("%d agent logs, want those of the creation and both turns", len(logs))
	}
	for _, e := range logs {
		for _, hidden := range []string{"prompt", "output", "reasoning", "error"} {
			if _, ok := e.(map[string]any)[hidden]; ok {
				t.Fatalf("a learner's export has an agent log with %s: %v", hidden, e)
			}
		}
	}
	usage := m["llm_usage"].([]any)
	if len(usage) != 3 {
		t.Fatalf("%d usage rows, want the learner's 3: %v", len(usage), usage)
	}
	u := usage[0].(map[string]any)
	if u["session_id"] != id || u["input_tokens"] != float64(900) || u["latency_ms"] != float64(1200) || u["model"] != "gpt-5.2" {
		t.Errorf("usage row %v", u)
	}
	if _, ok := u["prompt_hash"]; ok {
		t.Errorf("a learner's export has a prompt hash: %v", u)
	}
	// An admin exporting their own data gets the full entries.
	admin := token(t, "exporting-admin", true)
	aid := s.newSession(fractions, "", admin)
	s.do("POST", "/sessions/"+aid+"/step", map[string]any{"student_reply": "ready"}, admin)
	al, _ := s.st.LearnerByExternalID(context.Background(), "exporting-admin")
	recordUsage(t, s, al.ID.String(), aid, 0.01)
	m = export(admin)
	entry := m["sessions"].([]any)[0].(map[string]any)["agent_logs"].([]any)[0].(map[string]any)
	if _, ok := entry["prompt"]; !ok {
		t.Errorf("an admin's export lacks the prompt field: %v", entry)
	}
	if m["llm_usage"].([]any)[0].(map[string]any)["prompt_hash"] != "sha256:feedface" {
		t.Errorf("an admin's export lacks the prompt hash: %v", m["llm_usage"])
	}

	if r := s.do("GET", "/profile/export", nil, ""); r.Status != 401 || r.code(t) != "unauthorized" {
		t.Fatalf("export without a token: %d %s", r.Status, r.Body)
	}
}

// heldExports holds the first export until release is closed, and says on
// started when it has begun.
type heldExports struct {
	httpapi.Profiles
	calls   *atomic.Int32
	started chan<- struct{}
	release <-chan struct{}
}

func (h heldExports) ExportLearner(ctx context.Context, id uuid.UUID) (store.LearnerExport, error) {
	if h.calls.Add(1) == 1 {
		close(h.started)
		select {
		case <-h.release:
		case <-ctx.Done():
			return store.LearnerExport{}, ctx.Err()
		}
	}
	return h.Profiles.ExportLearner(ctx, id)
}

// TestProfileExportOneAtATime: while a learner's export runs, their next
// one gets 429 export_in_progress with Retry-After (the rate limits off,
// as here, or not); another learner's export runs, and so does the
// learner's once the first is done.
func TestProfileExportOneAtATime(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		d.Profiles = heldExports{Profiles: d.Profiles, calls: new(atomic.Int32), started: started, release: release}
	})
	// Released at the latest before the server closes, which waits for
	// the held request.
	done := sync.OnceFunc(func() { close(release) })
	t.Cleanup(done)
	tok := token(t, "one-export", false)
	first := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("GET", s.URL+"/profile/export", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		first <- resp.StatusCode
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the first export did not start")
	}
	r := s.do("GET", "/profile/export", nil, tok)
	if r.Status != 429 || r.code(t) != "export_in_progress" || r.Header.Get("Retry-After") != "5" {
		t.Errorf("an export while another runs: %d, Retry-After %q, %s; want 429 export_in_progress, Retry-After 5", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	if r := s.do("GET", "/profile/export", nil, token(t, "other-export", false)); r.Status != 200 {
		t.Errorf("another learner's export: %d %s", r.Status, truncate(r.Body, 300))
	}
	done()
	if code := <-first; code != 200 {
		t.Errorf("the first export: %d", code)
	}
	if r := s.do("GET", "/profile/export", nil, tok); r.Status != 200 {
		t.Errorf("an export after the first: %d %s", r.Status, truncate(r.Body, 300))
	}
}

// TestProfileExportRateLimited: exports are rate-limited per learner,
// slowly (3 at once, then one every 30 s), in a bucket of their own:
// a fourth export in a row gets 429 rate_limited with the wait in
// Retry-After, while other learners and other routes go on.
func TestProfileExportRateLimited(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
		o.TurnRate = httpapi.RateLimit{Rate: 100, Burst: 100}
	})
	tok := token(t, "export-rate", false)
	for i := range 3 {
		if r := s.do("GET", "/profile/export", nil, tok); r.Status != 200 {
			t.Fatalf("export %d: %d %s", i+1, r.Status, truncate(r.Body, 300))
		}
	}
	r := s.do("GET", "/profile/export", nil, tok)
	wait, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != 429 || r.code(t) != "rate_limited" || wait < 1 || wait > 30 {
		t.Errorf("a fourth export in a row: %d, Retry-After %q, %s; want 429 rate_limited, Retry-After 1-30", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	if r := s.do("GET", "/profile/export", nil, token(t, "export-rate-other", false)); r.Status != 200 {
		t.Errorf("another learner's export: %d", r.Status)
	}
	if r := s.do("GET", "/profile", nil, tok); r.Status != 200 {
		t.Errorf("the learner's profile: %d", r.Status)
	}
}

// TestProfileExportBurst: GET /profile/export reads everything stored
// about the learner in one transaction on a pooled connection and builds
// the document in memory (about 10x its size), so a burst of one
// learner's exports (or a stolen token's) must not all run: of 30 at once,
// at most the 3 of the rate's burst do, and the others get 429 with
// Retry-After.
func TestProfileExportBurst(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
		o.TurnRate = httpapi.RateLimit{Rate: 1000, Burst: 1000}
	})
	_, tok := takeTurns(t, s, "export-burst", 60)
	type result struct {
		status int
		retry  string
		body   []byte
	}
	const burst = 30
	results := make(chan result, burst)
	var wg sync.WaitGroup
	for range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", s.URL+"/profile/export", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				results <- result{}
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			results <- result{resp.StatusCode, resp.Header.Get("Retry-After"), b}
		}()
	}
	wg.Wait()
	close(results)
	codes := map[string]int{}
	for r := range results {
		switch r.status {
		case 200:
			codes["200"]++
		case 429:
			code := response{Status: r.status, Body: r.body}.code(t)
			codes[code]++
			if r.retry == "" || (code != "export_in_progress" && code != "rate_limited") {
				t.Errorf("a refused export: Retry-After %q, %s", r.retry, r.body)
			}
		default:
			t.Errorf("an export: %d %s", r.status, truncate(r.body, 300))
		}
	}
	t.Logf("%d concurrent exports of one learner: %v", burst, codes)
	if codes["200"] == 0 || codes["200"] > 3 {
		t.Errorf("%d of %d concurrent exports ran; want 1 to 3", codes["200"], burst)
	}
}

func TestLLMConfigRoutes(t *testing.T) {
	s := newServer(t, func(o *httpapi.Options, d *httpapi.Deps) {
		d.LLMKeys = func(p llmProvider) error {
			if p == "openai" {
				return nil
			}
			return errMissingKey
		}
	})
	r := s.do("GET", "/config/models", nil, "")
	if m := r.JSON(t); m["tutor"].(map[string]any)["provider"] != "rules" {
		t.Fatalf("config/models: %s", r.Body)
	}
	admin := token(t, "root", true)
	if r := s.do("GET", "/api/admin/llm-config", nil, token(t, "x", false)); r.Status != 403 || r.code(t) != "forbidden" || r.JSON(t)["detail"] != "Admin access required" {
		t.Fatalf("non-admin list: %d %s", r.Status, r.Body)
	}
	r = s.do("PUT", "/api/admin/llm-config/tutor", map[string]any{"provider": "openai", "model_id": "gpt-5.2"}, admin)
	if r.Status != 200 || r.JSON(t)["model_id"] != "gpt-5.2" {
		t.Fatalf("put: %d %s", r.Status, r.Body)
	}
	if m := s.do("GET", "/config/models", nil, "").JSON(t); m["tutor"].(map[string]any)["model_id"] != "gpt-5.2" {
		t.Fatalf("config/models after put: %v", m)
	}
	for _, tt := range []struct {
		path   string
		body   map[string]any
		status int
		code   string
	}{
		{"/api/admin/llm-config/tutor", map[string]any{"provider": "watson", "model_id": "x"}, 400, "unknown_provider"},
		{"/api/admin/llm-config/tutor", map[string]any{"provider": "anthropic", "model_id": "claude-haiku-4-5"}, 400, "missing_api_key"},
		{"/api/admin/llm-config/tutor", map[string]any{"provider": "openai", "model_id": "gpt-5.2", "temperature": 5}, 422, "validation_error"},
		{"/api/admin/llm-config/grader", map[string]any{"provider": "openai", "model_id": "gpt-5.2"}, 400, "unknown_component"},
	} {
		if r := s.do("PUT", tt.path, tt.body, admin); r.Status != tt.status || r.code(t) != tt.code {
			t.Errorf("put %s %v: %d %s; want %d %s", tt.path, tt.body, r.Status, r.Body, tt.status, tt.code)
		}
	}
	if r := s.do("GET", "/api/admin/llm-config/options", nil, admin); r.Status != 200 || !strings.Contains(string(r.Body), "gpt-5.2") {
		t.Fatalf("options: %d %s", r.Status, r.Body)
	}
}

func TestTranscribe(t *testing.T) {
	wav := append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 64)...)
	upload := func(s *apiServer, name string, data []byte) response {
		t.Helper()
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		part, _ := w.CreateFormFile("file", name)
		part.Write(data)
		w.Close()
		req, _ := http.NewRequest("POST", s.URL+"/transcribe", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		s.checkContract(req, nil, resp, b)
		return response{Status: resp.StatusCode, Body: b}
	}
	// Not configured: 503 saying how to configure it.
	s := newServer(t)
	if r := upload(s, "a.wav", wav); r.Status != 503 || !strings.Contains(string(r.Body), "TUTORD_STT_BASE_URL") {
		t.Fatalf("unconfigured: %d %s", r.Status, r.Body)
	}
	// A Whisper-compatible server.
	whisper := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/transcriptions" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, `{"error":{"message":"bad request"}}`, 400)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil || r.FormValue("model") != "whisper-1" {
			http.Error(w, `{"error":{"message":"no file"}}`, 400)
			return
		}
		f.Close()
		json.NewEncoder(w).Encode(map[string]string{"text": "three quarters"})
	}))
	defer whisper.Close()
	client, err := stt.New(stt.Config{BaseURL: whisper.URL + "/v1", APIKey: "sk-test", Model: "whisper-1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s = newServer(t, func(o *httpapi.Options, d *httpapi.Deps) { d.Transcribe = httpapi.NewTranscriber(client) })
	if r := upload(s, "recording.txt", wav); r.Status != 200 || !strings.Contains(string(r.Body), "three quarters") {
		t.Fatalf("transcribe: %d %s", r.Status, r.Body)
	}
	if r := upload(s, "recording.wav", []byte("just some text, not audio")); r.Status != 400 || r.code(t) != "unsupported_audio_format" {
		t.Fatalf("text as audio: %d %s", r.Status, r.Body)
	}
	if r := upload(s, "recording.wav", nil); r.Status != 400 || r.code(t) != "empty_audio" {
		t.Fatalf("empty: %d %s", r.Status, r.Body)
	}
	if r := upload(s, "big.wav", append(wav, make([]byte, 25<<20)...)); r.Status != 413 {
		t.Fatalf("too large: %d %s", r.Status, truncate(r.Body, 200))
	}
	whisper.Close()
	if r := upload(s, "a.wav", wav); r.Status != 503 {
		t.Fatalf("server down: %d %s", r.Status, r.Body)
	}
}

func TestCORSAndMetrics(t *testing.T) {
	s := newServer(t)
	req, _ := http.NewRequest("OPTIONS", s.URL+"/sessions", nil)
	req.Header.Set("Origin", "http://localhost:3000")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "authorization,content-type")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	h := resp.Header
	if resp.StatusCode != 200 || h.Get("Access-Control-Allow-Origin") != "http://localhost:3000" || h.Get("Access-Control-Allow-Headers") != "authorization,content-type" || h.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("preflight: %d %v", resp.StatusCode, h)
	}
	r := s.do("GET", "/health", nil, "", "Origin", "http://localhost:3000")
	if r.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("simple response: %v", r.Header)
	}
	id := s.newSession(fractions, "", "")
	s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "ready"}, "")
	r = s.do("GET", "/metrics", nil, "")
	for _, want := range []string{`tutord_turns_total{engine="rules",mode="teach_me"} 1`, `tutord_http_request_duration_seconds_count{method="POST",route="/sessions/:id/step",status="200"} 1`, "tutord_websockets_open 0"} {
		if !strings.Contains(string(r.Body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestAuthenticationUnavailable: when the identity provider's keys cannot
// be fetched, a request with a token is a 503 (clients log out on a 401),
// on every kind of route that takes one, as documented; and the log says
// why (the provider's answer), so that an operator can tell an outage from
// a wrong URL.
func TestAuthenticationUnavailable(t *testing.T) {
	var buf logBuffer
	s := newServer(t, func(_ *httpapi.Options, d *httpapi.Deps) {
		d.Auth = keysDownAuth(t)
		d.Logger = slog.New(slog.NewJSONHandler(&buf, nil))
	})
	id := s.newSession(fractions, "", "")
	for _, rt := range []struct{ method, path, use string }{
		{"GET", "/profile/export", "access"},
		{"GET", "/sessions/history", "access"},
		{"POST", "/sessions/" + id + "/pause", "access"},
		{"GET", "/sessions/" + id + "/replay", "access"},
		{"POST", "/auth/sync", "id"},
	} {
		r := s.do(rt.method, rt.path, nil, rsaToken(t, rt.use))
		if r.Status != 503 || r.code(t) != "unavailable" || !strings.Contains(string(r.Body), "Authentication is temporarily unavailable") ||
			strings.Contains(string(r.Body), "503") {
			t.Errorf("%s %s: %d %s; want 503 unavailable, without the provider's answer", rt.method, rt.path, r.Status, r.Body)
		}
	}
	for _, rec := range buf.records(t) {
		if rec["msg"] == "request failed" && strings.Contains(fmt.Sprint(rec["err"]), "503") {
			return
		}
	}
	t.Errorf("no log line says why the keys are unavailable: %v", buf.records(t))
}

// TestLearnerDeletedThroughAnotherReplica: a replica that still has a
// deleted learner cached answers their next request with 401
// learner_deleted, not a 500, and so does it the requests after that with
// the same token; a sign-in after the deletion starts afresh as a new
// learner would.
func TestLearnerDeletedThroughAnotherReplica(t *testing.T) {
	s := newServer(t)
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Audience: "tutord-test", Admin: auth.AdminRule{Claim: "role", Value: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	other := httpapi.New(httpapi.Deps{DB: s.st, Curriculum: s.st, Sessions: s.o, Learners: s.st, Profiles: s.st, Progress: s.st,
		AgentLogs: s.st, LLMConfig: s.st, Auth: httpapi.NewAuthenticator(v)}, httpapi.Options{AllowAnonymous: true, CORSOrigins: []string{"*"}})
	b := &apiServer{t: t, URL: newHTTPServer(t, other), st: s.st, o: s.o, srv: other, router: s.router, subject: s.subject}
	tok := token(t, "leaving", false)
	b.newSession(fractions, "", tok) // b caches the learner
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=leaving", nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	r := b.do("POST", "/sessions", createBody(s.subject[fractions], ""), tok)
	if r.Status != 401 || r.code(t) != "learner_deleted" {
		t.Fatalf("after the deletion elsewhere: %d %s", r.Status, r.Body)
	}
	if r := b.do("POST", "/sessions", createBody(s.subject[fractions], ""), tok); r.Status != 401 || r.code(t) != "learner_deleted" {
		t.Fatalf("the request after, with the same token: %d %s", r.Status, r.Body)
	}
	later := tokenSignedIn(t, "leaving", false, time.Now().Add(2*time.Second))
	if r := b.do("POST", "/sessions", createBody(s.subject[fractions], ""), later); r.Status != 200 {
		t.Fatalf("the request after a new sign-in: %d %s", r.Status, r.Body)
	}
}

// Profile text is limited by characters, not bytes, and a field over the
// limit is named and changes nothing.
func TestProfileTextLimitCountsCharacters(t *testing.T) {
	s := newServer(t)
	access := token(t, "learner-hindi", false)
	about := strings.Repeat("अ", 2000) // 3 bytes each
	r := s.do("PUT", "/profile", map[string]any{"about_me": about}, access)
	if r.Status != 200 || r.JSON(t)["about_me"] != about {
		t.Fatalf("about_me of 2000 characters: %d %s", r.Status, truncate(r.Body, 300))
	}
	r = s.do("PUT", "/profile", map[string]any{"about_me": about + "अ", "school_name": strings.Repeat("s", 2001), "name": "Asha"}, access)
	if r.Status != 422 {
		t.Fatalf("fields over the limit: %d %s", r.Status, truncate(r.Body, 300))
	}
	var got []string
	for _, d := range r.JSON(t)["detail"].([]any) {
		e := d.(map[string]any)
		got = append(got, fmt.Sprint(e["type"], e["loc"], " ", e["msg"]))
	}
	slices.Sort(got)
	want := []string{
		"string_too_long[body about_me] String should have at most 2000 characters",
		"string_too_long[body school_name] String should have at most 2000 characters",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors %q, want %q", got, want)
	}
	if m := s.do("GET", "/profile", nil, access).JSON(t); m["about_me"] != about || m["name"] != nil {
		t.Errorf("a refused update changed the profile: name %v, about_me changed %v", m["name"], m["about_me"] != about)
	}
}

// A token that does not verify is a 401 in the reference's words
// (CONTRACT §1.2: "Invalid token: Signature has expired."), without the JWT
// library's own text after them.
func TestTokenErrorSaysOnlyWhy(t *testing.T) {
	s := newServer(t)
	expired, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "learner-expired", ClientID: "tutord-test",
		TTL: time.Hour, IssuedAt: time.Now().Add(-2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/sessions/history", "/profile"} {
		r := s.do("GET", path, nil, expired)
		if r.Status != 401 {
			t.Fatalf("%s: %d %s; want 401", path, r.Status, r.Body)
		}
		if d, _ := r.JSON(t)["detail"].(string); d != "Invalid token: Signature has expired." {
			t.Errorf("%s: detail %q, want %q", path, d, "Invalid token: Signature has expired.")
		}
	}
	// The same at POST /auth/sync with an expired ID token (CONTRACT §2.9:
	// "verification errors → 401 as in §1.2").
	expiredID, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "learner-expired", TokenUse: auth.UseID,
		ClientID: "tutord-test", TTL: time.Hour, IssuedAt: time.Now().Add(-2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	r := s.do("POST", "/auth/sync", nil, expiredID)
	if r.Status != 401 {
		t.Fatalf("/auth/sync: %d %s; want 401", r.Status, r.Body)
	}
	if d, _ := r.JSON(t)["detail"].(string); d != "Invalid token: Signature has expired." {
		t.Errorf("/auth/sync: detail %q, want %q", d, "Invalid token: Signature has expired.")
	}
}

// TestDeletedAccountIsNotMadeAgain: an account deleted (an erasure request)
// while its learner's tab is still open stays deleted. The tab's tokens,
// signed in before the deletion and valid for a while, get 401
// learner_deleted (the frontend's cue to sign in again), on every route and
// at /auth/sync, rather than making the account again, empty or with the
// sign-in's email. A sign-in after the deletion makes a new account.
func TestDeletedAccountIsNotMadeAgain(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	mint := func(use string, signedIn time.Time) string {
		t.Helper()
		tok, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: "erased", TokenUse: use, ClientID: "tutord-test",
			TTL: time.Hour, IssuedAt: signedIn, Email: "erased@example.com", Name: "Asha",
			AdminRule: auth.AdminRule{Claim: "role", Value: "admin"}})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	before := time.Now().Add(-time.Minute)
	idTok, access := mint("id", before), mint("access", before)
	if r := s.do("POST", "/auth/sync", nil, idTok); r.Status != 200 {
		t.Fatalf("sign-in: %d %s", r.Status, r.Body)
	}
	s.newSession(fractions, "", access)
	if r := s.do("DELETE", "/auth/admin/user?cognito_sub=erased", nil, token(t, "root", true)); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}

	for _, call := range []struct{ method, path, tok string }{
		{"GET", "/profile", access},
		{"GET", "/sessions", access},
		{"POST", "/sessions", access},
		{"POST", "/auth/sync", idTok},
	} {
		var body any
		if call.path == "/sessions" && call.method == "POST" {
			body = createBody(s.subject[fractions], "")
		}
		if r := s.do(call.method, call.path, body, call.tok); r.Status != 401 || r.code(t) != "learner_deleted" {
			t.Errorf("%s %s with a token of the deleted account: %d %s; want 401 learner_deleted", call.method, call.path, r.Status, r.Body)
		}
	}
	var n int
	if err := s.st.Pool().QueryRow(ctx, `SELECT count(*) FROM learners WHERE external_id = 'erased' OR email = 'erased@example.com'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the deleted account was made again by its old tokens (%d rows)", n)
	}

	after := time.Now().Add(2 * time.Second)
	r := s.do("POST", "/auth/sync", nil, mint("id", after))
	if r.Status != 200 {
		t.Fatalf("a sign-in after the deletion: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", "/sessions", nil, mint("access", after)); r.Status != 200 || r.JSON(t)["total"] != float64(0) {
		t.Fatalf("the new account's sessions: %d %s; want none", r.Status, r.Body)
	}
}

// Behind a staging proxy protected by HTTP Basic authentication (or on a
// page behind HTTP authentication, where the browser adds "Authorization:
// Basic ..." by itself), anonymous use goes on: a header of another scheme
// is no token (CONTRACT §1.2), as tutord's WebSocket already read it. REST
// answered 401 "Not authenticated".
func TestOtherAuthorizationSchemeIsAnonymous(t *testing.T) {
	s := newServer(t)
	basic := []string{"Authorization", "Basic c3RhZ2luZzpzdGFnaW5n"}
	r := s.do("POST", "/sessions", createBody(s.subject[fractions], ""), "", basic...)
	if r.Status != 200 {
		t.Fatalf("POST /sessions (anonymous, behind Basic auth): %d %s; want 200 as without the header", r.Status, r.Body)
	}
	id := r.JSON(t)["session_id"].(string)
	if r := s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": "hi"}, "", basic...); r.Status != 200 {
		t.Fatalf("POST /sessions/{id}/step (anonymous, behind Basic auth): %d %s; want 200", r.Status, r.Body)
	}
}

// A new learner's first requests, sent together (a page load sends
// /auth/sync and /profile at once), all succeed, on one learner row.
func TestConcurrentFirstRequestsOfANewLearner(t *testing.T) {
	s := newServer(t)
	for round := range 5 {
		sub := fmt.Sprintf("fresh-%d", round)
		access := token(t, sub, false)
		idTok, err := auth.Mint([]byte(testSecret), auth.MintOptions{Subject: sub, TokenUse: auth.UseID, ClientID: "tutord-test",
			TTL: time.Hour, Email: sub + "@example.com", Name: "Asha"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		ids := make(chan any, 12)
		for i := range 12 {
			wg.Go(func() {
				var r response
				if i%4 == 0 {
					r = s.do("POST", "/auth/sync", nil, idTok)
				} else {
					r = s.do("GET", "/profile", nil, access)
				}
				if r.Status != 200 {
					t.Errorf("%s request %d: %d %s", sub, i, r.Status, r.Body)
					return
				}
				ids <- r.JSON(t)["id"]
			})
		}
		wg.Wait()
		close(ids)
		var first any
		for id := range ids {
			if first == nil {
				first = id
			} else if id != first {
				t.Errorf("%s: two learner ids %v and %v", sub, first, id)
			}
		}
		var n int
		if err := s.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM learners WHERE external_id = $1`, sub).Scan(&n); err != nil || n != 1 {
			t.Errorf("%s: %d learner rows (%v)", sub, n, err)
		}
	}
}
