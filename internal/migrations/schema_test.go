package migrations_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// TestEnginesHaveTheSameSchema migrates a SQLite and a PostgreSQL database
// and compares what the stores depend on: tables, columns with their type,
// nullability and default, and indexes with their columns and uniqueness.
// A migration written for one engine and forgotten, or written differently,
// for the other fails here.
func TestEnginesHaveTheSameSchema(t *testing.T) {
	ctx := context.Background()
	lite := describe(t, ctx, dbtest.Open(t, db.SQLite))
	pg := describe(t, ctx, dbtest.Open(t, db.Postgres))
	for _, line := range diff(lite, pg) {
		t.Error(line)
	}
	if len(lite) < 5 {
		t.Fatalf("only %d schema facts read from SQLite: the introspection is broken", len(lite))
	}
}

// A schema is a set of facts, one line each, such as
// "column users.name text not null default ”".
type schema map[string]bool

// engineOwn reports a fact about a full-text index, which each engine
// builds its own way (search: SQLite's FTS5 table and its shadow tables,
// PostgreSQL's tsvector table); both must still have the table itself.
func engineOwn(f string) bool {
	return f != "table search_fts" && strings.Contains(f, " search_fts")
}

func diff(lite, pg schema) []string {
	var out []string
	for f := range lite {
		if engineOwn(f) {
			continue
		}
		if !pg[f] {
			out = append(out, "only on SQLite: "+f)
		}
	}
	for f := range pg {
		if engineOwn(f) {
			continue
		}
		if !lite[f] {
			out = append(out, "only on PostgreSQL: "+f)
		}
	}
	sort.Strings(out)
	return out
}

func describe(t *testing.T, ctx context.Context, d *db.DB) schema {
	t.Helper()
	s := schema{}
	var err error
	if d.Engine == db.SQLite {
		err = describeSQLite(ctx, d, s)
	} else {
		err = describePostgres(ctx, d, s)
	}
	if err != nil {
		t.Fatalf("%s: %v", d.Engine, err)
	}
	return s
}

// normType folds the engines' spellings of one type together. SQLite's
// `INTEGER PRIMARY KEY` is its rowid alias, a 64-bit integer like
// PostgreSQL's BIGINT identity column.
func normType(typ string, pk bool) string {
	typ = strings.ToLower(strings.TrimSpace(typ))
	switch {
	case typ == "integer" && pk:
		return "bigint"
	case typ == "character varying", strings.HasPrefix(typ, "varchar"):
		return "text"
	case typ == "double precision", typ == "real":
		return "float"
	}
	return typ
}

// normDefault strips PostgreSQL's casts ('x'::text) and identity defaults,
// leaving the literal both engines were given.
func normDefault(def string) string {
	def = strings.TrimSpace(def)
	if i := strings.Index(def, "::"); i >= 0 {
		def = def[:i]
	}
	def = strings.Trim(def, "()")
	if strings.HasPrefix(def, "nextval") {
		return ""
	}
	return def
}

func column(table, name, typ string, notNull bool, def string) string {
	f := fmt.Sprintf("column %s.%s %s", table, name, typ)
	if notNull {
		f += " not null"
	}
	if def = normDefault(def); def != "" {
		f += " default " + def
	}
	return f
}

func describeSQLite(ctx context.Context, d *db.DB, s schema) error {
	tables, err := db.All(ctx, d, scanString, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return err
	}
	for _, tb := range tables {
		s["table "+tb] = true
		rows, err := d.Query(ctx, `SELECT name, type, "notnull", COALESCE(dflt_value, ''), pk FROM pragma_table_info(?)`, tb)
		if err != nil {
			return err
		}
		for rows.Next() {
			var name, typ, def string
			var notNull, pk int
			if err := rows.Scan(&name, &typ, &notNull, &def, &pk); err != nil {
				rows.Close()
				return err
			}
			// A primary key is NOT NULL on PostgreSQL whatever it says.
			s[column(tb, name, normType(typ, pk > 0), notNull == 1 || pk > 0, def)] = true
			if pk > 0 {
				s[fmt.Sprintf("primary key %s.%s", tb, name)] = true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		type index struct {
			name   string
			unique bool
			origin string
		}
		idx, err := db.All(ctx, d, func(r db.Scanner) (index, error) {
			var i index
			err := r.Scan(&i.name, &i.unique, &i.origin)
			return i, err
		}, `SELECT name, "unique", origin FROM pragma_index_list(?)`, tb)
		if err != nil {
			return err
		}
		for _, i := range idx {
			if i.origin == "pk" {
				continue // the primary key fact above covers it
			}
			cols, err := db.All(ctx, d, scanString, `SELECT COALESCE(name, '<expr>') FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`, i.name)
			if err != nil {
				return err
			}
			if i.origin == "u" {
				i.name = uniqueConstraint // named by each engine its own way
			}
			s[index_(tb, i.name, i.unique, cols)] = true
		}
	}
	return nil
}

// uniqueConstraint stands for the name of an index that a UNIQUE column
// constraint made: tags_name_key on PostgreSQL, sqlite_autoindex_tags_1 on SQLite.
const uniqueConstraint = "(unique constraint)"

func index_(table, name string, unique bool, cols []string) string {
	kind := "index"
	if unique {
		kind = "unique index"
	}
	return fmt.Sprintf("%s %s on %s(%s)", kind, name, table, strings.Join(cols, ", "))
}

func describePostgres(ctx context.Context, d *db.DB, s schema) error {
	tables, err := db.All(ctx, d, scanString, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)
	if err != nil {
		return err
	}
	for _, tb := range tables {
		s["table "+tb] = true
		type col struct {
			name, typ, nullable, def string
		}
		cols, err := db.All(ctx, d, func(r db.Scanner) (col, error) {
			var c col
			err := r.Scan(&c.name, &c.typ, &c.nullable, &c.def)
			return c, err
		}, `SELECT column_name, data_type, is_nullable, COALESCE(column_default, '') FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ?`, tb)
		if err != nil {
			return err
		}
		for _, c := range cols {
			s[column(tb, c.name, normType(c.typ, false), c.nullable == "NO", c.def)] = true
		}
		pks, err := db.All(ctx, d, scanString, `SELECT a.attname FROM pg_index i
			JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
			WHERE i.indrelid = ?::regclass AND i.indisprimary`, tb)
		if err != nil {
			return err
		}
		for _, c := range pks {
			s[fmt.Sprintf("primary key %s.%s", tb, c)] = true
		}
		type index struct {
			name   string
			unique bool
			cols   string
		}
		idx, err := db.All(ctx, d, func(r db.Scanner) (index, error) {
			var i index
			err := r.Scan(&i.name, &i.unique, &i.cols)
			return i, err
		}, `SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = i.indexrelid AND contype = 'u')
				THEN '`+uniqueConstraint+`' ELSE c.relname END, i.indisunique,
				(SELECT string_agg(COALESCE(a.attname, '<expr>'), ', ' ORDER BY k.ord)
				   FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
				   LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum AND k.attnum > 0
				  WHERE k.ord <= i.indnkeyatts)
			FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			WHERE i.indrelid = ?::regclass AND NOT i.indisprimary`, tb)
		if err != nil {
			return err
		}
		for _, i := range idx {
			s[index_(tb, i.name, i.unique, strings.Split(i.cols, ", "))] = true
		}
	}
	return nil
}

func scanString(r db.Scanner) (string, error) {
	var s string
	err := r.Scan(&s)
	return s, err
}
