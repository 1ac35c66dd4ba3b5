package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/bench"
	"github.com/tutord/tutord/internal/loadgen"
)

// benchReport is what `tutord bench` measures.
type benchReport struct {
	Saturation satReport `json:"saturation"`
	Latency    struct {
		Learners  int     `json:"learners"`
		ThinkS    float64 `json:"mean_think_s"`
		TurnsPerS float64 `json:"turns_per_s"`
		Errors    int     `json:"errors"`
		P50MS     float64 `json:"p50_ms"`
		P95MS     float64 `json:"p95_ms"`
		P99MS     float64 `json:"p99_ms"`
	} `json:"latency"`
	Idle struct {
		Connections  int     `json:"connections"`
		RSSBeforeKB  int     `json:"rss_before_kb"`
		RSSAfterKB   int     `json:"rss_after_kb"`
		KBPerConnect float64 `json:"kb_per_connection"`
	} `json:"idle"`
}

// runBench starts tutord serve as a child process on a fresh embedded
// database (rules engine, no rate limits) and measures it over loopback:
// saturation with closed-loop learners beside pgbench's reference turn on
// the same database, the two taking turns in rounds so that both see the
// same machine, latency under half that load, and the server's memory per
// idle WebSocket.
func runBench(ctx context.Context, e env, args []string) error {
	d := 10 * time.Second
	duration := &d
	var saturation, rounds, latency, idle *int
	var asJSON *bool
	flags := func(fs *flag.FlagSet) {
		fs.Var((*durationFlag)(duration), "duration", "length of each load phase, a `duration` such as 10s or 1m")
		saturation = fs.Int("learners", 32, "closed-loop learners of the saturation phase")
		rounds = fs.Int("rounds", 3, "rounds of the saturation phase, each a load phase then pgbench for as long")
		latency = fs.Int("latency-learners", 200, "learners of the latency phase (with think time)")
		idle = fs.Int("idle", 5000, "idle WebSockets to hold (0 skips)")
		asJSON = fs.Bool("json", false, "print the report as one JSON object")
	}
	if helpRequested(args) {
		printCommandUsage(e.stdout, e.environ, "bench", false, flags)
		return errHelp
	}
	fs := flag.NewFlagSet("tutord bench", flag.ContinueOnError)
	flags(fs)
	rest, err := parseFlags(fs, "bench", args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *duration <= 0 || *saturation < 1 || *rounds < 1 || *latency < 1 || *idle < 0 {
		return usageError{"bench takes no arguments; durations and counts must be positive"}
	}
	// Before anything starts: the saturation phase needs pgbench, and
	// finding it missing after the server's start and a load phase wastes
	// the wait.
	if _, err := bench.FindPgbench(); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "tutord-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, err := startChild(ctx, exe, dir)
	if err != nil {
		return err
	}
	defer srv.stop() // before the directory goes: the child's database lives in it

	t := loadgen.Target{URL: srv.url, HTTP: &http.Client{Timeout: 30 * time.Second}}
	if t.GuidelineID, err = firstSubtopic(srv.url); err != nil {
		return err
	}
	var rep benchReport
	if err := createPgbenchSessions(ctx, srv.connString, *saturation); err != nil {
		return err
	}
	sat, err := saturate(ctx, e, t, srv.connString, *saturation, *rounds, *duration)
	if err != nil {
		return err
	}
	rep.Saturation = sat

	// Half the saturation throughput, offered by many learners who think
	// between turns.
	think := time.Duration(float64(*latency) / (0.5 * sat.TurnsPerS) * float64(time.Second))
	fmt.Fprintf(e.stderr, "latency: %d learners, mean think %s, for %s\n", *latency, think.Round(time.Millisecond), *duration)
	if err := checkpoint(ctx, srv.connString); err != nil {
		return err
	}
	lat, err := loadgen.Run(ctx, t, *latency, *duration, think, 2)
	if err != nil {
		return err
	}
	rep.Latency.Learners, rep.Latency.ThinkS, rep.Latency.TurnsPerS, rep.Latency.Errors = lat.Learners, think.Seconds(), lat.TurnsPerS, lat.Errors
	rep.Latency.P50MS, rep.Latency.P95MS, rep.Latency.P99MS = float64(lat.Latency.P50)/1e6, float64(lat.Latency.P95)/1e6, float64(lat.Latency.P99)/1e6

	if *idle > 0 {
		fmt.Fprintf(e.stderr, "idle: holding %d WebSockets\n", *idle)
		time.Sleep(2 * time.Second) // let the last phase's connections go
		before, err := rssKB(srv.pid)
		if err != nil {
			return err
		}
		closeAll, err := loadgen.HoldIdle(ctx, t, *idle, 50)
		if err != nil {
			return err
		}
		time.Sleep(5 * time.Second) // let the server settle
		after, err := rssKB(srv.pid)
		closeAll()
		if err != nil {
			return err
		}
		rep.Idle.Connections, rep.Idle.RSSBeforeKB, rep.Idle.RSSAfterKB = *idle, before, after
		rep.Idle.KBPerConnect = float64(after-before) / float64(*idle)
	}
	if *asJSON {
		return json.NewEncoder(e.stdout).Encode(rep)
	}
	s, l, i := rep.Saturation, rep.Latency, rep.Idle
	fmt.Fprintf(e.stdout, "saturation  %d learners, %d rounds: %.0f turns/s (p50 %.1f ms, p99 %.1f ms, %d errors); pgbench %.0f tps (mean); median round's ratio %.2f (rounds %s)\n",
		s.Learners, s.Rounds, s.TurnsPerS, s.P50MS, s.P99MS, s.Errors, s.PgbenchTPS, s.Ratio, roundList(s.Ratios))
	fmt.Fprintf(e.stdout, "latency     %d learners, think %.1f s: %.0f turns/s; p50 %.1f ms, p95 %.1f ms, p99 %.1f ms (%d errors)\n",
		l.Learners, l.ThinkS, l.TurnsPerS, l.P50MS, l.P95MS, l.P99MS, l.Errors)
	if i.Connections > 0 {
		fmt.Fprintf(e.stdout, "idle        %d WebSockets: RSS %d → %d KB, %.1f KB per connection\n", i.Connections, i.RSSBeforeKB, i.RSSAfterKB, i.KBPerConnect)
	}
	return nil
}

// satReport is the saturation phase's figures.
type satReport struct {
	Learners   int       `json:"learners"`
	Rounds     int       `json:"rounds"`
	TurnsPerS  float64   `json:"turns_per_s"` // over all rounds
	Errors     int       `json:"errors"`
	PgbenchTPS float64   `json:"pgbench_tps"` // the mean over the rounds
	Ratio      float64   `json:"ratio"`       // the median over the rounds of turns/s ÷ pgbench's tps (the upper one of an even count)
	Ratios     []float64 `json:"round_ratios"`
	P50MS      float64   `json:"p50_ms"`
	P99MS      float64   `json:"p99_ms"`
}

// saturate runs rounds rounds of closed-loop learners for d, each
// followed by pgbench with as many clients for as long on the same
// database.
func saturate(ctx context.Context, e env, t loadgen.Target, connString string, learners, rounds int, d time.Duration) (satReport, error) {
	rep := satReport{Learners: learners, Rounds: rounds}
	var turns int
	var elapsed time.Duration
	var lat []time.Duration
	for r := range rounds {
		fmt.Fprintf(e.stderr, "saturation round %d/%d: %d learners for %s, then pgbench with %d clients\n", r+1, rounds, learners, d, learners)
		if err := checkpoint(ctx, connString); err != nil {
			return rep, err
		}
		res, err := loadgen.Run(ctx, t, learners, d, 0, 1)
		if err != nil {
			return rep, err
		}
		if err := checkpoint(ctx, connString); err != nil {
			return rep, err
		}
		tps, err := bench.Pgbench(ctx, connString, learners, d)
		if err != nil {
			return rep, err
		}
		if tps <= 0 {
			return rep, fmt.Errorf("pgbench ran no transactions in round %d", r+1)
		}
		turns, elapsed, rep.Errors = turns+res.Turns, elapsed+res.Duration, rep.Errors+res.Errors
		lat = append(lat, res.Samples...)
		rep.PgbenchTPS += tps / float64(rounds)
		rep.Ratios = append(rep.Ratios, res.TurnsPerS/tps)
	}
	if elapsed > 0 {
		rep.TurnsPerS = float64(turns) / elapsed.Seconds()
	}
	if n := len(rep.Ratios); n > 0 {
		sorted := slices.Sorted(slices.Values(rep.Ratios))
		rep.Ratio = sorted[n/2]
	}
	l := loadgen.Summarise(lat)
	rep.P50MS, rep.P99MS = float64(l.P50)/1e6, float64(l.P99)/1e6
	return rep, nil
}

// checkpoint flushes the database's dirty pages before a load phase, so
// that no phase runs under a checkpoint that the writes of the phases
// before it forced: the rounds write gigabytes of WAL, more than
// max_wal_size.
func checkpoint(ctx context.Context, connString string) error {
	db, err := pgx.Connect(ctx, connString)
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	if _, err := db.Exec(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

func roundList(rs []float64) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = strconv.FormatFloat(r, 'f', 2, 64)
	}
	return strings.Join(s, ", ")
}

type child struct {
	cmd        *exec.Cmd
	pid        int
	url        string
	connString string
	done       chan struct{}
}

// stop stops the child with SIGTERM, which lets it stop its embedded
// database, and waits until it has exited: only then may its data
// directory be removed. A child that does not stop within a minute is
// killed.
func (c *child) stop() {
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(60 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

// childSettings are the settings of the throwaway server, besides its data
// directory: a loopback port, logs startChild reads, the sample
// curriculum, and no limits that its load would hit.
var childSettings = []string{"TUTORD_ADDR=127.0.0.1:0", "TUTORD_LOG_FORMAT=json", "TUTORD_LOG_LEVEL=info", "TUTORD_LOAD_SAMPLE=true",
	"TUTORD_TURN_RATE=0", "TUTORD_CREATE_RATE=0", "TUTORD_WS_PER_SESSION=0", "TUTORD_WS_PER_CALLER=0", "TUTORD_DB_MAX_CONNS=40"}

// childEnv is the environment of the throwaway server in dir: the caller's
// without its TUTORD_ settings, which are a real server's (a production
// TUTORD_ALLOW_ANONYMOUS=false or TUTORD_MIGRATE=false would break this
// one), then childSettings and env. The server runs the rules engine, so
// no model provider's setting is needed.
func childEnv(dir string, env []string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TUTORD_") {
			out = append(out, kv)
		}
	}
	out = append(out, "TUTORD_DATA_DIR="+dir)
	out = append(out, childSettings...)
	return append(out, env...)
}

// startChild runs `tutord serve` on a fresh embedded database in dir, with
// the settings env on top of childEnv's, and waits until it listens. The
// caller stops it with stop: neither ctx nor a Ctrl-C at the terminal,
// which reaches only this process as the child has its own process group,
// kills it before it has stopped its database.
func startChild(ctx context.Context, exe, dir string, env ...string) (*child, error) {
	cmd := exec.Command(exe, "serve")
	cmd.Env = childEnv(dir, env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A pipe of our own, not StderrPipe: Wait closes that one as soon as
	// the child exits, and the child's last words, why it could not
	// start, could be lost unread.
	stderr, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		stderr.Close()
		return nil, err
	}
	c := &child{cmd: cmd, pid: cmd.Process.Pid, done: make(chan struct{}),
		connString: "host=" + filepath.Join(dir, "run") + " user=tutord dbname=tutord sslmode=disable"}
	addr := make(chan string, 1)
	lastErr := make(chan string, 1) // why the child stopped, if it says
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		var last string
		for sc.Scan() {
			var rec struct{ Msg, Addr, Err string }
			if json.Unmarshal(sc.Bytes(), &rec) != nil {
				// Not a log record: a fatal start-up error ("tutord: ...").
				last = strings.TrimSpace(sc.Text())
				continue
			}
			switch {
			case rec.Msg == "listening":
				addr <- rec.Addr
			case rec.Err != "":
				last = rec.Msg + ": " + rec.Err
			}
		}
		lastErr <- last
		io.Copy(io.Discard, stderr)
		stderr.Close()
	}()
	go func() { cmd.Wait(); close(c.done) }()
	select {
	case a := <-addr:
		c.url = "http://" + a
		return c, nil
	case <-c.done:
		if why := <-lastErr; why != "" {
			return nil, fmt.Errorf("tutord serve exited during start-up: %s", why)
		}
		return nil, fmt.Errorf("tutord serve exited during start-up")
	case <-ctx.Done():
		c.stop()
		return nil, ctx.Err()
	case <-time.After(2 * time.Minute):
		c.stop()
		return nil, fmt.Errorf("tutord serve did not start listening")
	}
}

func firstSubtopic(base string) (string, error) {
	resp, err := http.Get(base + "/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics&topic=Fractions")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var cur struct {
		Subtopics []struct {
			GuidelineID string `json:"guideline_id"`
		} `json:"subtopics"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&cur); err != nil || len(cur.Subtopics) == 0 {
		return "", fmt.Errorf("the sample curriculum is not loaded: %v", err)
	}
	return cur.Subtopics[0].GuidelineID, nil
}

func createPgbenchSessions(ctx context.Context, connString string, n int) error {
	db, err := pgx.Connect(ctx, connString)
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	for k := range n {
		if _, err := db.Exec(ctx, `INSERT INTO sessions (id, mode, state_json) VALUES ($1, 'teach_me', '{}') ON CONFLICT DO NOTHING`, bench.SessionID(k)); err != nil {
			return err
		}
	}
	return nil
}

// rssKB returns a process's resident set size in kilobytes.
func rssKB(pid int) (int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}
