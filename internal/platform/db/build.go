package db

import "strings"

// Small pieces of SQL that stores build at run time. They live here so
// that each store does not keep its own copy.

// Placeholders is "?, ?, …" with n marks, for an IN list of n values; ""
// when n is 0, so callers skip the statement for an empty list.
func Placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return "?" + strings.Repeat(", ?", n-1)
}

// BoolInt is b as a flag column stores it: 1 or 0 (flags are SMALLINT on
// both engines).
func BoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Where collects a statement's conditions, ANDed in the order added, with
// their arguments. The zero value has none.
type Where struct {
	conds []string
	args  []any
}

// And adds cond, whose ? placeholders take args.
func (w *Where) And(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

// Clause is " WHERE c1 AND c2 …", or "" when no condition was added.
func (w *Where) Clause() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// Args are the conditions' arguments in order. The slice has no spare
// capacity, so two appends to it (the count's and the page's arguments)
// cannot write over each other.
func (w *Where) Args() []any {
	return w.args[:len(w.args):len(w.args)]
}
