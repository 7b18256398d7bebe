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

func kindIndex(k string) int64 { return int64(slices.Index(Kinds, k)) }
