package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Restarting with the same TUTORD_CURRICULUM_DIR, which revises a shipped
// subtopic, changes nothing: the sample is not imported beside it.
func TestRestartWithCurriculumDirMakesNoPlanVersions(t *testing.T) {
	dir := dataDir(t)
	cur := filepath.Join(dir, "curriculum")
	sample, err := os.ReadFile("../../curricula/india/cbse/grade-7/mathematics/fractions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const old = "          2/9 + 5/9 = (2 + 5)/9 = 7/9.\n"
	if !strings.Contains(string(sample), old) {
		t.Fatal("the sample changed; update the test")
	}
	revised := strings.Replace(string(sample), old, old+"          So the sum is 7/9.\n", 1)
	if err := os.MkdirAll(cur, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cur, "fractions.yaml"), []byte(revised), 0o644); err != nil {
		t.Fatal(err)
	}

	env := []string{"TUTORD_DATA_DIR=" + dir, "TUTORD_CURRICULUM_DIR=" + cur}
	for range 2 { // start, stop, start again with nothing changed
		p := startServe(t, env...)
		p.waitReady(t)
		p.stop(t)
	}
	p := startServe(t, env...)
	p.waitReady(t)
	defer p.stop(t)

	ctx := context.Background()
	db, err := pgx.Connect(ctx, "host="+filepath.Join(dir, "run")+" user=tutord dbname=tutord sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	var versions int
	if err := db.QueryRow(ctx, `
SELECT count(*) FROM plan_versions p JOIN guidelines g ON g.id = p.guideline_id
WHERE g.board = 'CBSE' AND g.grade = 7 AND g.key = 'mathematics/fractions/adding-and-subtracting-fractions'`).Scan(&versions); err != nil {
		t.Fatal(err)
	}
	// The first start imports the directory's version; the restarts add
	// nothing.
	if versions != 1 {
		t.Errorf("after three starts with the same TUTORD_CURRICULUM_DIR the revised subtopic has %d plan versions; want 1", versions)
	}
}

// serve refuses a TUTORD_CURRICULUM_DIR that holds no curriculum file (a
// volume mounted at another path, a mistyped directory), as curriculum
// import refuses it: started, it would report ready with no curriculum, the
// sample not being loaded beside a directory.
func TestServeRefusesACurriculumDirWithoutCurriculumFiles(t *testing.T) {
	dir := dataDir(t)
	empty := filepath.Join(dir, "curricula")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), "TUTORD_ADDR=127.0.0.1:0", "TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL=",
		"TUTORD_DATA_DIR="+dir, "TUTORD_CURRICULUM_DIR="+empty)
	listening, done, errOut := startWatched(t, cmd, func(line string) bool { return strings.Contains(line, `"msg":"listening"`) })
	select {
	case <-done:
		line := lastLine(errOut.String())
		if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(line, "TUTORD_CURRICULUM_DIR: no curriculum file in "+empty) {
			t.Fatalf("serve with an empty TUTORD_CURRICULUM_DIR: exit %d, %q; want a failure naming TUTORD_CURRICULUM_DIR and %s",
				cmd.ProcessState.ExitCode(), line, empty)
		}
	case <-listening:
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-done
		t.Fatalf("serve started with TUTORD_CURRICULUM_DIR=%s, which holds no curriculum file", empty)
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-done
		t.Fatal("serve neither failed nor listened")
	}
}

// startWatched starts cmd and reads its standard error: seen receives once
// when a line satisfies marks, done is closed once cmd has exited, and out
// holds what it wrote (complete once done is closed).
func startWatched(t *testing.T, cmd *exec.Cmd, marks func(line string) bool) (seen, done <-chan struct{}, out *bytes.Buffer) {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out = new(bytes.Buffer)
	marked, exited := make(chan struct{}, 1), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if marks(sc.Text()) {
				select {
				case marked <- struct{}{}:
				default:
				}
			}
		}
		cmd.Wait()
		close(exited)
	}()
	return marked, exited, out
}

// serve with TUTORD_MIGRATE=false imports the sample curriculum into an
// unmigrated embedded database: it stops at once saying to run tutord
// migrate up, not on PostgreSQL's "relation ... does not exist".
func TestServeImportOnAnUnmigratedDatabase(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve")
	cmd.Env = append(os.Environ(), "TUTORD_ADDR=127.0.0.1:0", "TUTORD_LOG_FORMAT=json", "TUTORD_DATABASE_URL=",
		"TUTORD_DATA_DIR="+dataDir(t), "TUTORD_MIGRATE=false")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	_ = cmd.Run()
	line := lastLine(errOut.String())
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(line, "curriculum import at start: the database schema is at version 0") || !strings.Contains(line, "run tutord migrate up") {
		t.Fatalf("serve with TUTORD_MIGRATE=false on an unmigrated database: exit %d, %q; want exit 1 saying to run tutord migrate up", cmd.ProcessState.ExitCode(), line)
	}
}
