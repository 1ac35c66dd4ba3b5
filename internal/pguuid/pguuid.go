// Package pguuid teaches pgx to send github.com/google/uuid values as
// PostgreSQL uuids directly. Without it pgx goes through the type's
// driver.Valuer: every uuid parameter is formatted as text, fails the binary
// plan and is parsed back, which costs more than the rest of a small
// query's encoding.
package pguuid

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Register makes m encode uuid.UUID values (and slices of them) as uuids.
// Scanning is left as it was.
func Register(m *pgtype.Map) {
	t := &pgtype.Type{Name: "uuid", OID: pgtype.UUIDOID, Codec: codec{}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "_uuid", OID: pgtype.UUIDArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
}

// AfterConnect registers the codec on a new connection; it fits
// pgxpool.Config.AfterConnect.
func AfterConnect(_ context.Context, conn *pgx.Conn) error {
	Register(conn.TypeMap())
	return nil
}

// codec is pgx's uuid codec with a plan for uuid.UUID values.
type codec struct{ pgtype.UUIDCodec }

func (c codec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	switch value.(type) {
	case uuid.UUID, *uuid.UUID:
		if next := c.UUIDCodec.PlanEncode(m, oid, format, pgtype.UUID{}); next != nil {
			return encodePlan{next}
		}
	}
	return c.UUIDCodec.PlanEncode(m, oid, format, value)
}

// encodePlan encodes a uuid.UUID as the pgtype.UUID holding its bytes.
type encodePlan struct{ next pgtype.EncodePlan }

func (p encodePlan) Encode(value any, buf []byte) ([]byte, error) {
	var id uuid.UUID
	switch v := value.(type) {
	case uuid.UUID:
		id = v
	case *uuid.UUID:
		if v == nil {
			return nil, nil // NULL
		}
		id = *v
	}
	return p.next.Encode(pgtype.UUID{Bytes: id, Valid: true}, buf)
}
