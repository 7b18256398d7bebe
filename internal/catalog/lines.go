package catalog

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// Delivery lines (spec §9): the origins a client may call the API on and
// load images and videos from, plus fallback sources (text files holding
// base64 JSON {"ios": [api urls]}) for when every API line is down. They
// are stored in delivery_lines and read by every client start, so the
// service keeps them in process for linesTTL and drops the copy when an
// operator changes them (after the commit). Another node sees a change
// within linesTTL.

// Line list names, as in the API and the kind column.
const (
	LinesAPI      = "api"
	LinesImage    = "image"
	LinesVideo    = "video"
	LinesFallback = "fallback"
)

// MaxLinesPerList bounds each list: a client races every media line at
// start, and a CSP header lists every origin.
const MaxLinesPerList = 20

// maxLineURL bounds one entry; an origin is far shorter.
const maxLineURL = 512

// linesTTL is how long a node serves its cached lines without reading the
// table again.
const linesTTL = 15 * time.Second

// Lines are the operator's lists. An empty list means "this server" for
// api, image and video, and "no fallback" for fallback.
type Lines struct {
	API      []string `json:"api"`
	Image    []string `json:"image"`
	Video    []string `json:"video"`
	Fallback []string `json:"fallback"`
}

func (l *Lines) lists() []struct {
	kind string
	urls *[]string
} {
	return []struct {
		kind string
		urls *[]string
	}{{LinesAPI, &l.API}, {LinesImage, &l.Image}, {LinesVideo, &l.Video}, {LinesFallback, &l.Fallback}}
}

// LineError names the entry an operator must fix.
type LineError struct {
	List    string // api, image, video or fallback
	Index   int    // position in the list, from 0
	URL     string // the entry as sent (bounded)
	Problem string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s[%d] %q: %s", e.List, e.Index, e.URL, e.Problem)
}

// normalizeLine checks one entry and returns its canonical form: for a line
// the origin (lowercase scheme://host[:port], default port dropped); for a
// fallback source the whole URL (it names a file, so a path and query are
// allowed). Credentials, fragments and anything but http(s) are refused.
func normalizeLine(raw string, fallback bool) (string, string) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", "empty"
	}
	if len(s) > maxLineURL {
		return "", fmt.Sprintf("longer than %d bytes", maxLineURL)
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", "not a URL"
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "http" && scheme != "https":
		return "", "must be an absolute http or https URL"
	case u.Opaque != "" || u.Host == "":
		return "", "must be an absolute http or https URL"
	case u.User != nil:
		return "", "must not carry credentials"
	case u.Fragment != "" || strings.Contains(s, "#"):
		return "", "must not have a fragment"
	}
	host := strings.ToLower(u.Hostname())
	if !validHost(host) {
		return "", "invalid host"
	}
	port := u.Port()
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", "invalid port"
		}
		if (scheme == "http" && n == 80) || (scheme == "https" && n == 443) {
			port = ""
		} else {
			port = strconv.Itoa(n)
		}
	}
	hostport := host
	if strings.Contains(host, ":") {
		hostport = "[" + host + "]"
	}
	if port != "" {
		hostport += ":" + port
	}
	origin := scheme + "://" + hostport
	if fallback {
		if u.Path == "" || u.Path == "/" {
			return "", "must name the file (a path)"
		}
		out := origin + u.EscapedPath()
		if u.RawQuery != "" {
			out += "?" + u.RawQuery
		}
		return out, ""
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery {
		return "", "must be an origin: no path beyond /, no query"
	}
	return origin, ""
}

// validHost accepts a DNS name or an IP address and nothing that could
// break out of a CSP header or a URL (no spaces, quotes, ';' or ',').
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if net.ParseIP(h) != nil {
		return true
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// NormalizeLines checks and canonicalises every list: at most
// MaxLinesPerList entries each, duplicates (after normalising) dropped
// keeping the first. The first bad entry is a *LineError.
func NormalizeLines(in Lines) (Lines, error) {
	var out Lines
	src := in.lists()
	for i, dst := range out.lists() {
		list := *src[i].urls
		if len(list) > MaxLinesPerList {
			return Lines{}, &LineError{List: dst.kind, Index: MaxLinesPerList, URL: clip(list[MaxLinesPerList]),
				Problem: fmt.Sprintf("at most %d entries", MaxLinesPerList)}
		}
		seen := map[string]bool{}
		clean := []string{}
		for j, raw := range list {
			n, problem := normalizeLine(raw, dst.kind == LinesFallback)
			if problem != "" {
				return Lines{}, &LineError{List: dst.kind, Index: j, URL: clip(raw), Problem: problem}
			}
			if !seen[n] {
				seen[n] = true
				clean = append(clean, n)
			}
		}
		*dst.urls = clean
	}
	return out, nil
}

func clip(s string) string {
	if len(s) > 80 {
		// Cut on a rune boundary so the message stays valid text.
		cut := 80
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// linesCache is the in-process copy of the table. gen moves on every
// invalidation, so a read that raced a change cannot store the old lists
// over the drop.
type linesCache struct {
	mu      sync.Mutex
	lines   Lines
	origins []string
	until   time.Time
	gen     uint64
}

// Lines returns the configured lists (empty lists when none), from the
// cache when it is fresh.
func (s *Service) Lines(ctx context.Context) (Lines, error) {
	l, _, err := s.cachedLines(ctx)
	return l, err
}

func (s *Service) cachedLines(ctx context.Context) (Lines, []string, error) {
	c := &s.lines
	c.mu.Lock()
	if s.now().Before(c.until) {
		l, o := c.lines, c.origins
		c.mu.Unlock()
		return l, o, nil
	}
	gen := c.gen
	c.mu.Unlock()

	l, err := readLines(ctx, s.db)
	if err != nil {
		return Lines{}, nil, err
	}
	o := lineOrigins(l)
	c.mu.Lock()
	if c.gen == gen {
		c.lines, c.origins, c.until = l, o, s.now().Add(linesTTL)
	}
	c.mu.Unlock()
	return l, o, nil
}

func (s *Service) dropLines() {
	c := &s.lines
	c.mu.Lock()
	c.gen++
	c.until = time.Time{}
	c.mu.Unlock()
}

// LineSources is every configured line's origin (api, image, video and the
// fallback sources' hosts) and whether a fallback source is set, for the
// CSP: with one, the page may reach any https origin, because the lines a
// fallback file names are not known to the server. Errors give no origins:
// the page then keeps to its own, which always works.
func (s *Service) LineSources(ctx context.Context) (origins []string, fallback bool) {
	l, o, err := s.cachedLines(ctx)
	if err != nil {
		return nil, false
	}
	return o, len(l.Fallback) > 0
}

func lineOrigins(l Lines) []string {
	seen := map[string]bool{}
	var out []string
	for _, list := range l.lists() {
		for _, raw := range *list.urls {
			u, err := url.Parse(raw)
			if err != nil {
				continue
			}
			o := u.Scheme + "://" + u.Host
			if !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	return out
}

func readLines(ctx context.Context, q db.Querier) (Lines, error) {
	type row struct{ kind, url string }
	rows, err := db.All(ctx, q, func(sc db.Scanner) (row, error) {
		var r row
		return r, sc.Scan(&r.kind, &r.url)
	}, `SELECT kind, url FROM delivery_lines ORDER BY kind, position`)
	if err != nil {
		return Lines{}, err
	}
	l := Lines{API: []string{}, Image: []string{}, Video: []string{}, Fallback: []string{}}
	for _, r := range rows {
		for _, list := range l.lists() {
			if list.kind == r.kind {
				*list.urls = append(*list.urls, r.url)
			}
		}
	}
	return l, nil
}

// SetLines replaces every list with in (checked by NormalizeLines) in one
// transaction with its audit row, and returns what is stored.
func (s *Service) SetLines(ctx context.Context, actor audit.Actor, in Lines) (Lines, error) {
	next, err := NormalizeLines(in)
	if err != nil {
		return Lines{}, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := readLines(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM delivery_lines`); err != nil {
			return err
		}
		for _, list := range next.lists() {
			for i, u := range *list.urls {
				if _, err := tx.Exec(ctx, `INSERT INTO delivery_lines (kind, position, url) VALUES (?, ?, ?)`, list.kind, i, u); err != nil {
					return err
				}
			}
		}
		tx.AfterCommit(s.dropLines)
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "lines.set", TargetType: "lines",
			Before: before, After: next}, s.now())
	})
	if err != nil {
		return Lines{}, err
	}
	return next, nil
}

// AllowsOrigin reports whether a page served from origin may call this
// server across origins (CORS): it must be a configured line's origin or
// the public URL's.
func (s *Service) AllowsOrigin(ctx context.Context, origin string) bool {
	if origin == "" || origin == "null" {
		return false
	}
	if s.opts.PublicURL != "" && s.publicOrigin("") == origin {
		return true
	}
	// Fallback sources are file hosts, not pages: only the lines count.
	l, _, err := s.cachedLines(ctx)
	if err != nil {
		return false
	}
	for _, list := range [][]string{l.API, l.Image, l.Video} {
		if slices.Contains(list, origin) {
			return true
		}
	}
	return false
}
