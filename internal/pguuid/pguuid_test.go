package pguuid_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/pguuid"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestRoundTrip sends uuids, pointers to them, nil pointers and slices of
// them in both wire formats and reads them back.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.ConnString(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	pguuid.Register(conn.TypeMap())

	id := uuid.MustParse("6f1c2a4e-8b0d-4c3e-9a7f-2d5b1e0c9f84")
	var got uuid.UUID
	var text string
	if err := conn.QueryRow(ctx, `SELECT $1::uuid, $1::uuid::text`, id).Scan(&got, &text); err != nil {
		t.Fatal(err)
	}
	if got != id || text != id.String() {
		t.Errorf("sent %s, read %s and %q", id, got, text)
	}

	var isNull bool
	var none *uuid.UUID
	if err := conn.QueryRow(ctx, `SELECT $1::uuid IS NULL, $2::uuid = $3`, none, &id, id.String()).Scan(&isNull, new(bool)); err != nil || !isNull {
		t.Errorf("a nil *uuid.UUID: null %v, err %v", isNull, err)
	}

	ids := []uuid.UUID{id, uuid.MustParse("00000000-0000-0000-0000-000000000001")}
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM unnest($1::uuid[]) u WHERE u = ANY($2)`, ids, ids[:1]).Scan(&n); err != nil || n != 1 {
		t.Errorf("uuid slices: %d matches, err %v; want 1", n, err)
	}

	// The text protocol path (a simple query) formats the same value.
	if err := conn.QueryRow(ctx, `SELECT $1::uuid::text`, pgx.QueryExecModeSimpleProtocol, id).Scan(&text); err != nil || text != id.String() {
		t.Errorf("simple protocol: %q, err %v", text, err)
	}
	// And the binary plan is the direct one, not the driver.Valuer detour.
	for _, v := range []any{id, &id} {
		plan := conn.TypeMap().PlanEncode(pgtype.UUIDOID, pgtype.BinaryFormatCode, v)
		if got := fmt.Sprintf("%T", plan); !strings.Contains(got, "pguuid.encodePlan") && !strings.Contains(fmt.Sprintf("%+v", plan), "pguuid.encodePlan") {
			t.Errorf("%T encodes with %s", v, got)
		}
	}
}
