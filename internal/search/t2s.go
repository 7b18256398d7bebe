package search

// t2s maps a traditional character to its simplified form where the table
// has one. The table is filled in t2s_table.go.
func t2s(r rune) (rune, bool) {
	if r < 0x3400 {
		return r, false
	}
	s, ok := t2sTable[r]
	return s, ok
}
