package orchestrator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

func countRows(t *testing.T, st *store.Store, table string, id uuid.UUID) int {
	t.Helper()
	var n int
	if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM `+table+` WHERE session_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTurnsOnOneSessionRunOneAfterTheOther(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	var wg sync.WaitGroup
	results := make([]orchestrator.TurnResult, 2)
	errs := make([]error, 2)
	for i, msg := range []string{"ready", "ok"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = f.o.ProcessTurn(context.Background(), id, msg, "")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("a turn failed: %v", err)
		}
	}
	versions := map[int64]bool{results[0].Session.Row.Version: true, results[1].Session.Row.Version: true}
	if !versions[2] || !versions[3] {
		t.Fatalf("versions %v; want 2 and 3 (the second ran on the first's state)", versions)
	}
	se, _ := f.o.Load(context.Background(), id)
	if se.State.TurnCount != 2 || countRows(t, f.st, "session_messages", id) != 5 {
		t.Fatalf("turn count %d, %d messages", se.State.TurnCount, countRows(t, f.st, "session_messages", id))
	}
}

func TestTwoReplicasRaceOnOneSession(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	// A second orchestrator over the same database, as another replica.
	// Its turn is held between its read and its commit until the first
	// replica has committed, so that exactly one compare-and-swap can win.
	replica, hold, release := pausedReplica(t, f)
	var second orchestrator.TurnResult
	var secondErr error
	done := make(chan struct{})
	go func() {
		second, secondErr = replica.ProcessTurn(context.Background(), id, "from the second tab", "")
		close(done)
	}()
	<-hold
	first, err := f.o.ProcessTurn(context.Background(), id, "ready", "")
	if err != nil {
		t.Fatal(err)
	}
	close(release)
	<-done
	var conflict *orchestrator.ConflictError
	if !errors.As(secondErr, &conflict) {
		t.Fatalf("second replica: %v %+v; want a conflict", secondErr, second)
	}
	if conflict.Version != first.Session.Row.Version || conflict.State.TurnCount != 1 {
		t.Fatalf("conflict carries version %d turn %d; want the winner's %d", conflict.Version, conflict.State.TurnCount, first.Session.Row.Version)
	}
	msgs, _ := f.o.Messages(context.Background(), id)
	for _, m := range msgs {
		if m.Content == "from the second tab" {
			t.Fatal("the loser's message was written")
		}
	}
	var loserLogs int
	f.st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM agent_log_entries WHERE session_id = $1 AND input_summary LIKE '%second tab%'`, id).Scan(&loserLogs)
	if loserLogs != 0 || countRows(t, f.st, "session_turns", id) != 1 {
		t.Fatalf("loser's rows: %d logs, %d turn records", loserLogs, countRows(t, f.st, "session_turns", id))
	}
}

// A replica keeps the sessions it committed in memory. When another replica
// changes one since, the next turn here still runs on the stored session:
// after a failed compare-and-swap without SessionChanged, directly with it.
// Either way no conflict reaches the caller, and the stale run writes
// nothing.
func TestTurnAfterAnotherReplicasTurn(t *testing.T) {
	for _, announced := range []bool{false, true} {
		f := setup(t)
		var obs conflictCounter
		st := &countingStore{Store: f.st}
		here := newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) { o.Observer, o.Store = &obs, st })
		other := newOrchestrator(t, f.st, f.src)
		ctx := context.Background()
		c := f.create(t, doubling, tutor.ModeTeachMe)
		id := c.Session.Row.ID
		if _, err := here.ProcessTurn(ctx, id, "ready", ""); err != nil {
			t.Fatal(err)
		}
		r, err := other.ProcessTurn(ctx, id, "from the other replica", "")
		if err != nil {
			t.Fatal(err)
		}
		if announced {
			here.SessionChanged(id, r.Session.Row.Version)
		}
		third, err := here.ProcessTurn(ctx, id, "and back here", "")
		if err != nil {
			t.Fatalf("announced=%v: %v", announced, err)
		}
		if third.Session.State.TurnCount != 3 || third.Session.Row.Version != r.Session.Row.Version+1 {
			t.Fatalf("announced=%v: turn %d at version %d; want turn 3 after the other replica's version %d",
				announced, third.Session.State.TurnCount, third.Session.Row.Version, r.Session.Row.Version)
		}
		msgs, err := here.Messages(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(msgs); n < 4 || msgs[n-2].Content != "and back here" || msgs[n-4].Content != "from the other replica" {
			t.Fatalf("announced=%v: messages %+v", announced, msgs)
		}
		var started, turns int
		f.st.Pool().QueryRow(ctx, `SELECT count(*), count(DISTINCT turn_id) FROM agent_log_entries WHERE session_id = $1 AND event = 'turn_started'`, id).Scan(&started, &turns)
		if started != 3 || turns != 3 || countRows(t, f.st, "session_turns", id) != 3 {
			t.Fatalf("announced=%v: %d turn traces of %d turns, %d turn records; want 3, 3, 3", announced, started, turns, countRows(t, f.st, "session_turns", id))
		}
		if want := map[bool]int64{false: 1, true: 0}[announced]; st.stale.Load() != want || obs.conflicts.Load() != 0 {
			t.Fatalf("announced=%v: %d failed compare-and-swaps (want %d), %d conflicts reported (want 0)", announced, st.stale.Load(), want, obs.conflicts.Load())
		}
	}
}

// An announcement of another replica's turn that arrives while a turn here
// is between its commit and keeping its copy in memory is not lost: the
// next turn here reads the stored session instead of failing its
// compare-and-swap on the older copy.
func TestAnnouncementDuringCommit(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	other := newOrchestrator(t, f.st, f.src)
	st := &afterCommitStore{countingStore: countingStore{Store: f.st}}
	here := newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) { o.Store = st })
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	st.after = func() {
		r, err := other.ProcessTurn(ctx, id, "from the other replica", "")
		if err != nil {
			t.Error(err)
			return
		}
		here.SessionChanged(id, r.Session.Row.Version)
	}
	if _, err := here.ProcessTurn(ctx, id, "ready", ""); err != nil {
		t.Fatal(err)
	}
	r, err := here.ProcessTurn(ctx, id, "and back here", "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Session.State.TurnCount != 3 || st.stale.Load() != 0 {
		t.Fatalf("turn %d after %d failed compare-and-swaps; want turn 3 and none", r.Session.State.TurnCount, st.stale.Load())
	}
}

// afterCommitStore calls after once, after the first successful commit.
type afterCommitStore struct {
	countingStore
	once  sync.Once
	after func()
}

func (a *afterCommitStore) CommitTurn(ctx context.Context, t store.Turn) (int64, error) {
	v, err := a.countingStore.CommitTurn(ctx, t)
	if err == nil {
		a.once.Do(a.after)
	}
	return v, err
}

// A retry of a client turn whose first attempt another replica commits
// while the retry runs here gets that attempt's response, and is not run a
// second time.
func TestRetryAfterAnotherReplicaCommittedIt(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	st := &countingStore{Store: f.st, found: make(chan struct{}), release: make(chan struct{})}
	here := newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) { o.Store = st })
	other := newOrchestrator(t, f.st, f.src)
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	if _, err := here.ProcessTurn(ctx, id, "ready", ""); err != nil {
		t.Fatal(err)
	}
	st.hold.Store(true)
	var retry orchestrator.TurnResult
	var retryErr error
	done := make(chan struct{})
	go func() {
		retry, retryErr = here.ProcessTurn(ctx, id, "ok", "k1")
		close(done)
	}()
	<-st.found // the retry found no turn k1 yet
	first, err := other.ProcessTurn(ctx, id, "ok", "k1")
	if err != nil {
		t.Fatal(err)
	}
	before := st.commits.Load()
	close(st.release)
	<-done
	if retryErr != nil {
		t.Fatal(retryErr)
	}
	if !retry.Replayed || !bytes.Equal(retry.Response, first.Response) || countRows(t, f.st, "session_turns", id) != 2 {
		t.Fatalf("retry: replayed %v, %d turn records; want the first attempt's response and 2 records", retry.Replayed, countRows(t, f.st, "session_turns", id))
	}
	if n := st.commits.Load() - before; n != 1 {
		t.Fatalf("the retry committed %d times; want once (on its stale copy), then the replay", n)
	}
}

// An empty message commits nothing, so no compare-and-swap checks the copy
// in memory: the session it returns is the stored one all the same.
func TestNudgeReturnsTheStoredSession(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	here := newOrchestrator(t, f.st, f.src)
	other := newOrchestrator(t, f.st, f.src)
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	var first orchestrator.TurnResult
	for i := 0; i < 6 && first.Session.State.LastQuestion == nil; i++ {
		var err error
		if first, err = here.ProcessTurn(ctx, id, "ok", ""); err != nil {
			t.Fatal(err)
		}
	}
	q := first.Session.State.LastQuestion
	if q == nil {
		t.Fatal("setup: no question in six turns")
	}
	// The other replica's turn answers the question: mastery moves.
	r, err := other.ProcessTurn(ctx, id, q.Expected(first.Session.Topic).Answer, "")
	if err != nil {
		t.Fatal(err)
	}
	nudge, err := here.ProcessTurn(ctx, id, "   ", "")
	if err != nil {
		t.Fatal(err)
	}
	if nudge.Committed || nudge.Session.Row.Version != r.Session.Row.Version || nudge.Session.State.TurnCount != r.Session.State.TurnCount {
		t.Fatalf("nudge: committed %v, version %d turn %d; want the stored version %d, turn %d",
			nudge.Committed, nudge.Session.Row.Version, nudge.Session.State.TurnCount, r.Session.Row.Version, r.Session.State.TurnCount)
	}
	var resp struct {
		NextTurn struct {
			MasteryScore float64 `json:"mastery_score"`
		} `json:"next_turn"`
	}
	want := r.Session.State.OverallMastery()
	if err := json.Unmarshal(nudge.Response, &resp); err != nil || want == 0 || resp.NextTurn.MasteryScore != want {
		t.Fatalf("nudge response %s (%v): want the stored session's mastery %v", nudge.Response, err, want)
	}
}

// Pausing and resuming change the session outside a turn; the next turn
// reads the changed session instead of failing its compare-and-swap first.
func TestTurnAfterPauseAndResume(t *testing.T) {
	f := setup(t)
	st := &countingStore{Store: f.st}
	o := newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) { o.Store = st })
	ctx := context.Background()
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	if _, err := o.ProcessTurn(ctx, id, "ready", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Pause(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	r, err := o.ProcessTurn(ctx, id, "ok", "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Session.State.TurnCount != 2 || st.stale.Load() != 0 {
		t.Fatalf("turn %d after %d failed compare-and-swaps; want turn 2 after none", r.Session.State.TurnCount, st.stale.Load())
	}
}

type conflictCounter struct{ conflicts atomic.Int64 }

func (c *conflictCounter) TurnCompleted(tutor.Mode, string, time.Duration) {}
func (c *conflictCounter) Conflict()                                       { c.conflicts.Add(1) }

// countingStore counts commits, and those that failed their
// compare-and-swap. With hold set, its next FindTurn, once answered,
// closes found and waits for release.
type countingStore struct {
	*store.Store
	commits, stale atomic.Int64
	hold           atomic.Bool
	found, release chan struct{}
}

func (c *countingStore) FindTurn(ctx context.Context, id uuid.UUID, clientTurnID string) (store.TurnRecord, error) {
	r, err := c.Store.FindTurn(ctx, id, clientTurnID)
	if c.hold.CompareAndSwap(true, false) {
		close(c.found)
		<-c.release
	}
	return r, err
}

func (c *countingStore) CommitTurn(ctx context.Context, t store.Turn) (int64, error) {
	c.commits.Add(1)
	v, err := c.Store.CommitTurn(ctx, t)
	if errors.Is(err, store.ErrStale) {
		c.stale.Add(1)
	}
	return v, err
}

// pausingStore holds the first CommitTurn until released.
type pausingStore struct {
	*store.Store
	once    sync.Once
	reached chan struct{}
	release chan struct{}
}

func (p *pausingStore) CommitTurn(ctx context.Context, t store.Turn) (int64, error) {
	p.once.Do(func() {
		close(p.reached)
		<-p.release
	})
	return p.Store.CommitTurn(ctx, t)
}

// pausedReplica returns a second orchestrator over f's database, as
// another replica, whose first commit waits, once it is reached (hold
// closes), until release is closed.
func pausedReplica(t *testing.T, f *fixture) (replica *orchestrator.Orchestrator, hold, release chan struct{}) {
	t.Helper()
	hold, release = make(chan struct{}), make(chan struct{})
	replica = newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) {
		o.Store = &pausingStore{Store: f.st, reached: hold, release: release}
	})
	return replica, hold, release
}

func TestClientTurnIDRetries(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	ctx := context.Background()
	a, err := f.o.ProcessTurn(ctx, id, "ready", "turn-a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.o.ProcessTurn(ctx, id, "ready", "turn-a")
	if err != nil {
		t.Fatal(err)
	}
	if !b.Replayed || !bytes.Equal(a.Response, b.Response) || b.Reply != a.Reply {
		t.Fatalf("retry: replayed %v, responses differ: %s vs %s", b.Replayed, a.Response, b.Response)
	}
	// Sent twice at once: one turn, two identical responses.
	var wg sync.WaitGroup
	res := make([]orchestrator.TurnResult, 2)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := f.o.ProcessTurn(ctx, id, "ok", "turn-b")
			if err != nil {
				t.Error(err)
			}
			res[i] = r
		}()
	}
	wg.Wait()
	if !bytes.Equal(res[0].Response, res[1].Response) || res[0].Replayed == res[1].Replayed {
		t.Fatalf("concurrent duplicates: replayed %v/%v", res[0].Replayed, res[1].Replayed)
	}
	se, _ := f.o.Load(ctx, id)
	if se.State.TurnCount != 2 || countRows(t, f.st, "session_turns", id) != 2 {
		t.Fatalf("turn count %d, %d turn records; want 2 and 2", se.State.TurnCount, countRows(t, f.st, "session_turns", id))
	}
}

func TestStopWaitsForTurnsInFlight(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	if err := f.o.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := f.o.ProcessTurn(context.Background(), c.Session.Row.ID, "hi", ""); !errors.Is(err, orchestrator.ErrShuttingDown) {
		t.Fatalf("turn after Stop: %v", err)
	}
}

// TestStopWithNothingInFlight: at shutdown, the HTTP server's wait may use
// up the whole timeout; Stop, called then with its context already ended
// and no turn in flight, reported that turns did not finish in time (in
// tutord's log). With nothing to wait for it returns nil.
func TestStopWithNothingInFlight(t *testing.T) {
	f := setup(t)
	f.create(t, doubling, tutor.ModeTeachMe)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 20 {
		if err := f.o.Stop(ctx); err != nil {
			t.Fatalf("Stop with nothing in flight and its context ended: %v; want nil", err)
		}
	}
}

// A retry that reaches another replica while the first attempt is still
// running there loses the compare-and-swap to it, and gets the first
// attempt's response rather than a conflict.
func TestRetryOnAnotherReplicaGetsTheFirstResponse(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	replica, hold, release := pausedReplica(t, f)
	var retry orchestrator.TurnResult
	var retryErr error
	done := make(chan struct{})
	go func() {
		retry, retryErr = replica.ProcessTurn(context.Background(), id, "ready", "key-1")
		close(done)
	}()
	<-hold // the retry is about to commit on the replica
	first, err := f.o.ProcessTurn(context.Background(), id, "ready", "key-1")
	if err != nil {
		t.Fatal(err)
	}
	close(release)
	<-done
	if retryErr != nil || !retry.Replayed || !bytes.Equal(retry.Response, first.Response) {
		t.Fatalf("retry on the other replica: %v, replayed %v", retryErr, retry.Replayed)
	}
	if n := countRows(t, f.st, "session_turns", id); n != 1 {
		t.Fatalf("%d turn records; want 1", n)
	}
}

// failingOnce fails the tutor's first call, as a provider outage would.
type failingOnce struct {
	orchestrator.Engines
	calls *atomic.Int32
}

func (e failingOnce) Agents(cfg tutor.Config) (agents.Set, error) {
	s, err := e.Engines.Agents(cfg)
	s.Tutor = failingTutor{s.Tutor, e.calls}
	return s, err
}

type failingTutor struct {
	agents.Tutor
	calls *atomic.Int32
}

func (f failingTutor) Respond(ctx context.Context, t agents.Turn) (agents.TutorReply, agents.Call, error) {
	if f.calls.Add(1) == 1 {
		err := errors.New("provider unavailable")
		return agents.TutorReply{}, agents.Call{Agent: agents.NameMasterTutor, Provider: "test", Err: err}, err
	}
	return f.Tutor.Respond(ctx, t)
}

// TestRetryAfterAFailedTurn: a failed turn asks the learner to send the
// message again; a retry with the same client turn id is that, and runs as
// a new turn instead of getting the failure back.
func TestRetryAfterAFailedTurn(t *testing.T) {
	calls := &atomic.Int32{}
	f := setup(t, func(o *orchestrator.Options) { o.Engines = failingOnce{o.Engines, calls} })
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	ctx := context.Background()
	first, err := f.o.ProcessTurn(ctx, id, "ready", "turn-a")
	if err != nil {
		t.Fatal(err)
	}
	if first.Reply != orchestrator.FailureReply || !first.Committed {
		t.Fatalf("first attempt: %q, committed %v; want the failure reply", first.Reply, first.Committed)
	}
	retry, err := f.o.ProcessTurn(ctx, id, "ready", "turn-a")
	if err != nil {
		t.Fatal(err)
	}
	if retry.Replayed || retry.Reply == orchestrator.FailureReply || calls.Load() != 2 {
		t.Fatalf("retry: replayed %v, reply %q, tutor calls %d", retry.Replayed, retry.Reply, calls.Load())
	}
	// The answered retry is what a further retry gets.
	again, err := f.o.ProcessTurn(ctx, id, "ready", "turn-a")
	if err != nil {
		t.Fatal(err)
	}
	if !again.Replayed || again.Reply != retry.Reply || calls.Load() != 2 {
		t.Fatalf("second retry: replayed %v, reply %q", again.Replayed, again.Reply)
	}
}

// slowEngines give a tutor that answers only when its context ends.
type slowEngines struct {
	orchestrator.Engines
	entered chan<- struct{}
}

func (e slowEngines) Agents(cfg tutor.Config) (agents.Set, error) {
	s, err := e.Engines.Agents(cfg)
	s.Tutor = slowTutor{s.Tutor, e.entered}
	return s, err
}

// slowTutor answers only when its context ends, as a model call does when
// its time runs out or its caller goes away. It tells entered, if any,
// that it was called.
type slowTutor struct {
	agents.Tutor
	entered chan<- struct{}
}

func (s slowTutor) Respond(ctx context.Context, _ agents.Turn) (agents.TutorReply, agents.Call, error) {
	if s.entered != nil {
		s.entered <- struct{}{}
	}
	<-ctx.Done()
	return agents.TutorReply{}, agents.Call{Agent: agents.NameMasterTutor, Provider: "test", Err: ctx.Err()}, ctx.Err()
}

// TestTurnOutOfTime: a turn whose deadline passes while the tutor thinks
// still answers "let's try that again" and leaves its record: the deadline
// does not take the failure's commit with it.
func TestTurnOutOfTime(t *testing.T) {
	f := setup(t, func(o *orchestrator.Options) { o.Engines = slowEngines{o.Engines, nil} })
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, err := f.o.ProcessTurn(ctx, id, "ready", "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Reply != orchestrator.FailureReply || !r.Committed || countRows(t, f.st, "session_turns", id) != 1 {
		t.Fatalf("reply %q, committed %v, %d turn records", r.Reply, r.Committed, countRows(t, f.st, "session_turns", id))
	}
}

// TestTurnAbandonedByItsCaller: a client that goes away while the tutor
// thinks (a closed tab, a REST client's own timeout) finds nothing written
// (the turn is committed whole or not at all), so that its retry with the
// same client turn id runs the turn. A committed failure would have put the
// message and an apology nobody saw into the conversation, and made the
// retry a second copy of the message.
func TestTurnAbandonedByItsCaller(t *testing.T) {
	entered := make(chan struct{}, 1)
	f := setup(t, func(o *orchestrator.Options) { o.Engines = slowEngines{o.Engines, entered} })
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	before := countRows(t, f.st, "session_messages", id)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := f.o.ProcessTurn(ctx, id, "ready", "k-gone")
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ProcessTurn of a caller gone: %v, want context.Canceled", err)
	}
	if msgs, turns := countRows(t, f.st, "session_messages", id)-before, countRows(t, f.st, "session_turns", id); msgs != 0 || turns != 0 {
		t.Fatalf("after the caller went away: %d new messages, %d turn records; want none", msgs, turns)
	}
}

// After sessions are deleted, Forget keeps any turn from running on a copy
// in memory: the turn finds the session gone before any agent runs.
func TestForgetAfterDelete(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	st := &countingStore{Store: f.st}
	o := newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) { o.Store = st })
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	if _, err := o.ProcessTurn(ctx, id, "ready", ""); err != nil {
		t.Fatal(err)
	}
	if n, err := f.st.PurgeAnonymous(ctx, time.Now().Add(time.Hour)); err != nil || n == 0 {
		t.Fatalf("purge: %d, %v", n, err)
	}
	o.Forget()
	before := st.commits.Load()
	if _, err := o.ProcessTurn(ctx, id, "ok", ""); !errors.Is(err, orchestrator.ErrSessionNotFound) {
		t.Fatalf("turn on a deleted session: %v", err)
	}
	if st.commits.Load() != before {
		t.Fatal("the turn ran on the deleted session's copy and tried to commit")
	}
}

// TestDeletionReachesOtherProcesses: a learner deleted through another
// process (which announces it, as every process does with
// TUTORD_REPLICA_SYNC) leaves no copy of their session in this one's
// memory: no turn runs on it, and the session is not found.
func TestDeletionReachesOtherProcesses(t *testing.T) {
	f := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	other := store.New(f.st.Pool(), store.Announce()) // the process that deletes
	st := &countingStore{Store: f.st}
	o := newOrchestrator(t, f.st, f.src, func(o *orchestrator.Options) { o.Store = st })
	deleted := make(chan uuid.UUID, 10)
	probe := uuid.New()
	stopped := make(chan error, 1)
	go func() {
		stopped <- f.st.WatchSessions(ctx, nil, func(id uuid.UUID, v int64) {
			o.SessionChanged(id, v)
			if v == store.SessionDeleted || id == probe {
				deleted <- id
			}
		})
	}()
	t.Cleanup(func() { cancel(); <-stopped })
	for listening := false; !listening; { // until the watch listens
		if _, err := f.st.Pool().Exec(ctx, `SELECT pg_notify($1, $2)`, store.SessionChannel, probe.String()+":1"); err != nil {
			t.Fatal(err)
		}
		select {
		case <-deleted:
			listening = true
		case <-time.After(200 * time.Millisecond):
		}
	}

	l, err := f.st.EnsureLearner(ctx, "sub-"+uuid.NewString())
	if err != nil {
		t.Fatal(err)
	}
	c, err := o.CreateSession(ctx, orchestrator.CreateRequest{LearnerID: &l.ID, GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
		Student: tutor.StudentContext{Grade: 6, Board: "CBSE", LanguageLevel: "standard"}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Session.Row.ID
	if _, err := o.ProcessTurn(ctx, id, "ready", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := other.DeleteLearner(ctx, l.ExternalID); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-deleted:
		if got != id {
			t.Fatalf("heard %v deleted, want %v", got, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the deletion was not announced")
	}
	if _, err := o.Owner(ctx, id); !errors.Is(err, orchestrator.ErrSessionNotFound) {
		t.Errorf("owner of the deleted session: %v, want ErrSessionNotFound", err)
	}
	before := st.commits.Load()
	if _, err := o.ProcessTurn(ctx, id, "ok", ""); !errors.Is(err, orchestrator.ErrSessionNotFound) {
		t.Fatalf("turn on the deleted session: %v", err)
	}
	if st.commits.Load() != before {
		t.Error("the turn ran on the deleted session's copy and tried to commit")
	}
}

// TestConflictWithAnUnreadableStoredState: a turn loses its
// compare-and-swap to another replica that wrote a state this process
// cannot read (a newer schema, in the middle of a rolling upgrade). The
// conflict carried this turn's old state labelled with the stored, newer
// version, so a WebSocket showed the old state as the newest and then
// dropped the stored one as "not newer". It now carries the old state
// with the version it had.
func TestConflictWithAnUnreadableStoredState(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	replica, hold, release := pausedReplica(t, f)
	var turnErr error
	done := make(chan struct{})
	go func() {
		_, turnErr = replica.ProcessTurn(context.Background(), id, "ready", "")
		close(done)
	}()
	<-hold // the turn has read version 1 and is about to commit
	if _, err := f.st.Pool().Exec(context.Background(), `
UPDATE sessions SET state_json = jsonb_set(state_json::jsonb, '{schema_version}', '99')::json, state_version = state_version + 1
WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	close(release)
	<-done
	var conflict *orchestrator.ConflictError
	if !errors.As(turnErr, &conflict) {
		t.Fatalf("turn: %v; want a conflict", turnErr)
	}
	if conflict.Version != c.Session.Row.Version || conflict.State.TurnCount != c.Session.State.TurnCount {
		t.Fatalf("conflict: version %d with a state of %d turns; want the turn's own state at its version %d",
			conflict.Version, conflict.State.TurnCount, c.Session.Row.Version)
	}
}
