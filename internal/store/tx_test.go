package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tutord/tutord/internal/store"
)

// TestInTxCommitFailures: a transaction whose COMMIT fails (a deferred
// constraint, a serialization failure, the server closing the connection)
// fails with the store's sentinel for the failure, as every other
// statement does, named as the commit, and leaves nothing behind. fn's own
// error comes back as fn returned it.
func TestInTxCommitFailures(t *testing.T) {
	s := setup(t)
	ctx := context.Background()
	// A scratch table whose unique constraint and trigger wait for COMMIT;
	// the trigger ends its own backend for k = 3.
	if _, err := s.Pool().Exec(ctx, `
CREATE TABLE scratch (k int, CONSTRAINT scratch_k_key UNIQUE (k) DEFERRABLE INITIALLY DEFERRED);
CREATE FUNCTION scratch_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.k = 3 THEN
        PERFORM pg_terminate_backend(pg_backend_pid());
        PERFORM pg_sleep(10);
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER scratch_at_commit AFTER INSERT ON scratch
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION scratch_at_commit();`); err != nil {
		t.Fatal(err)
	}
	// exec returns an fn for InTx that runs stmts.
	exec := func(stmts ...string) func(tx *store.Store) error {
		return func(tx *store.Store) error {
			for _, q := range stmts {
				if _, err := tx.DB().Exec(ctx, q); err != nil {
					return fmt.Errorf("%s: %w", q, err)
				}
			}
			return nil
		}
	}
	for _, tt := range []struct {
		name string
		k    int // the row the transaction inserts
		fn   func(tx *store.Store) error
		want error
	}{
		{"deferred unique violation", 1, exec(`INSERT INTO scratch VALUES (1), (1)`), store.ErrConflict},
		{"serialization failure", 20, func(tx *store.Store) error {
			// Write skew: this transaction reads the tens and writes a
			// twenty, another reads the twenties and writes a ten, and
			// commits first. This one is doomed, and fails at COMMIT.
			if err := exec(`SET TRANSACTION ISOLATION LEVEL SERIALIZABLE`,
				`SELECT count(*) FROM scratch WHERE k BETWEEN 10 AND 19`,
				`INSERT INTO scratch VALUES (20)`)(tx); err != nil {
				return err
			}
			return pgx.BeginTxFunc(ctx, s.Pool(), pgx.TxOptions{IsoLevel: pgx.Serializable}, func(other pgx.Tx) error {
				if _, err := other.Exec(ctx, `SELECT count(*) FROM scratch WHERE k BETWEEN 20 AND 29`); err != nil {
					return err
				}
				_, err := other.Exec(ctx, `INSERT INTO scratch VALUES (10)`)
				return err
			})
		}, store.ErrBusy},
		{"connection closed by the server", 3, exec(`INSERT INTO scratch VALUES (3)`), store.ErrUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.InTx(ctx, tt.fn)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), "commit") {
				t.Errorf("InTx = %v; want a commit failure matching %v", err, tt.want)
			}
			assertScratchRows(t, s, tt.k, 0)
		})
	}
	t.Run("fn's own error", func(t *testing.T) {
		fnErr := fmt.Errorf("import x: %w", store.ErrInvalid)
		err := s.InTx(ctx, func(tx *store.Store) error {
			if err := exec(`INSERT INTO scratch VALUES (4)`)(tx); err != nil {
				return err
			}
			return fnErr
		})
		if err != fnErr {
			t.Errorf("InTx = %v; want fn's error %v, as it was", err, fnErr)
		}
		assertScratchRows(t, s, 4, 0)
	})
	t.Run("commit", func(t *testing.T) {
		if err := s.InTx(ctx, exec(`INSERT INTO scratch VALUES (5)`)); err != nil {
			t.Errorf("InTx = %v", err)
		}
		assertScratchRows(t, s, 5, 1)
	})
}

// assertScratchRows fails the test unless the scratch table holds n rows
// of key k.
func assertScratchRows(t *testing.T, s *store.Store, k, n int) {
	t.Helper()
	var got int
	if err := s.Pool().QueryRow(context.Background(), `SELECT count(*) FROM scratch WHERE k = $1`, k).Scan(&got); err != nil || got != n {
		t.Errorf("scratch holds %d rows of k = %d (%v); want %d", got, k, err, n)
	}
}
