package store

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// SessionChannel is the PostgreSQL notification channel on which a store
// made with Announce announces each committed turn (or pause, resume, end)
// as "<session id>:<new version>", so that each tutord process sharing the
// database can update its WebSocket connections on the session, and each
// deleted session with the version SessionDeleted, so that none keeps a
// copy of it.
const SessionChannel = "tutord_session"

// SessionDeleted is the version a deleted session is announced with: newer
// than any, so that every copy of the session is out of date.
const SessionDeleted int64 = math.MaxInt64

// WatchSessions calls fn with the session and new state version of every
// change announced on the database, by this process or any other, until
// ctx ends or the connection fails; it returns why it stopped. It holds
// one connection of the pool's for itself while it runs. Changes
// committed while no watch runs are not replayed: listening, when not nil,
// is called once the watch listens, from when on no change is missed (a
// caller watching again after a failure reads afresh what it holds).
func (s *Store) WatchSessions(ctx context.Context, listening func(), fn func(id uuid.UUID, version int64)) error {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("watch sessions: %w", err)
	}
	// A listening connection must not go back to the pool.
	conn := c.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+SessionChannel); err != nil {
		return fmt.Errorf("watch sessions: %w", err)
	}
	if listening != nil {
		listening()
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("watch sessions: %w", err)
		}
		if id, version, ok := parseSessionNote(n.Payload); ok {
			fn(id, version)
		}
	}
}

func parseSessionNote(s string) (uuid.UUID, int64, bool) {
	idText, versionText, ok := strings.Cut(s, ":")
	if !ok {
		return uuid.Nil, 0, false
	}
	id, err := uuid.Parse(idText)
	if err != nil {
		return uuid.Nil, 0, false
	}
	version, err := strconv.ParseInt(versionText, 10, 64)
	return id, version, err == nil
}
