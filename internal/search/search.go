// Package search is Prima's full-text engine: one tokenizer in Go for
// indexing and querying (CJK unigrams and bigrams, Latin and digit words,
// width/case/traditional folding), fed into each engine's own full-text
// index (SQLite FTS5 over pre-tokenised text, PostgreSQL tsvector + GIN).
//
// Domains call Touch in the transaction that changes an item, so the index
// never drifts; Reindex rebuilds it (`prima reindex`). The package imports
// only internal/platform: it reads the source tables itself.
package search

import (
	"errors"
	"slices"
)

// Kinds of searchable items.
const (
	KindVideo   = "video"
	KindShort   = "short"
	KindGallery = "gallery"
	KindPost    = "post"
	KindTopic   = "topic"
	KindUser    = "user"
)

// Kinds in the order overview sections show them.
var Kinds = []string{KindVideo, KindShort, KindGallery, KindPost, KindTopic, KindUser}

// Input errors; the HTTP layer answers each with 422.
var (
	ErrEmptyQuery   = errors.New("请输入搜索内容")
	ErrQueryTooLong = errors.New("搜索内容不能超过 100 个字")
	ErrBadKind      = errors.New("搜索类型不正确")
	ErrBadSort      = errors.New("排序方式不正确")
	// ErrBadPin: a pinned word that is empty, too long or junk, or too many pins.
	ErrBadPin = errors.New("热词不正确")
)

// MaxQueryRunes bounds a query after control characters are stripped.
const MaxQueryRunes = 100

// Sort orders.
const (
	SortRelevance = "relevance"
	SortNew       = "new"
	SortPlays     = "plays"
)

func validKind(k string) bool { return slices.Contains(Kinds, k) }

// A doc's id is its kind's code << refBits | the item's id. Each kind is one
// contiguous id range, so a kind filter is a rowid range the index seeks to,
// and within a kind ids follow the items' own ids: newest first is id
// descending. The codes' order puts videos at the top, so a window over
// every kind (suggestions) reaches videos first.
const refBits = 40

// maxRef is the largest item id the index can hold (a trillion).
const maxRef = 1<<refBits - 1

var kindCodes = map[string]int64{KindUser: 1, KindTopic: 2, KindPost: 3, KindGallery: 4, KindShort: 5, KindVideo: 6}

func docID(kind string, ref int64) int64 { return kindCodes[kind]<<refBits | ref }

// kindOf is the kind and item id of a doc id.
func kindOf(id int64) (string, int64) {
	code, ref := id>>refBits, id&maxRef
	for k, c := range kindCodes {
		if c == code {
			return k, ref
		}
	}
	return "", ref
}

// idRange is the doc ids of kind, or of every kind for "".
func idRange(kind string) (lo, hi int64) {
	if kind == "" {
		return 1 << refBits, 7<<refBits - 1
	}
	return docID(kind, 0), docID(kind, maxRef)
}
