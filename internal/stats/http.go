package stats

import (
	"encoding/csv"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/httpx"
)

// rangeOf reads from and to (YYYY-MM-DD, Asia/Shanghai); both absent is
// the last 7 days up to today.
func (s *Service) rangeOf(r *http.Request) (string, string, error) {
	q := httpx.Q(r)
	from, to := q.String("from"), q.String("to")
	if err := q.Err(); err != nil {
		return "", "", err
	}
	if from == "" && to == "" {
		now := s.now()
		return days.Of(now.AddDate(0, 0, -6)), days.Of(now), nil
	}
	if from == "" || to == "" {
		return "", "", httpx.Invalid("请同时给出开始和结束日期", "from and to go together (YYYY-MM-DD)")
	}
	if _, err := Range(from, to); err != nil {
		return "", "", badRange(err)
	}
	return from, to, nil
}

func badRange(err error) error {
	if errors.Is(err, ErrBadDay) {
		return httpx.Invalid("日期范围无效（YYYY-MM-DD，开始不晚于结束，最多 366 天）", err.Error())
	}
	return err
}

// wantsCSV is format=csv; another format is a 422.
func wantsCSV(r *http.Request) (bool, error) {
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		return false, nil
	case "csv":
		return true, nil
	default:
		return false, httpx.Invalid("format 只能是 json 或 csv", "format="+httpx.Echo(f)+" is not json or csv")
	}
}

// AdminDaily is GET /api/admin/stats/daily?from&to[&format=csv].
func (s *Service) AdminDaily(w http.ResponseWriter, r *http.Request) error {
	from, to, err := s.rangeOf(r)
	if err != nil {
		return err
	}
	asCSV, err := wantsCSV(r)
	if err != nil {
		return err
	}
	rep, err := s.Daily(r.Context(), from, to)
	if err != nil {
		return badRange(err)
	}
	if !asCSV {
		return httpx.OK(w, rep)
	}
	providers := map[string]bool{}
	for _, d := range rep.Days {
		for p := range d.ByProvider {
			providers[p] = true
		}
	}
	names := make([]string, 0, len(providers))
	for p := range providers {
		names = append(names, p)
	}
	sort.Strings(names)
	head := []string{"day", "rolled", "activeUsers", "newGuests", "registrations", "payers", "firstPayments",
		"topupCents", "vipCents", "revenueCents", "withdrawCount", "withdrawCents", "plays", "searches", "visits"}
	for _, p := range names {
		head = append(head, "provider:"+p)
	}
	cw := startCSV(w, "stats-daily-"+from+"-"+to, head)
	for _, d := range rep.Days {
		row := []string{d.Day, strconv.FormatBool(d.Rolled), n(d.ActiveUsers), n(d.NewGuests), n(d.Registrations), n(d.Payers),
			n(d.Funnel.FirstPayments), n(d.Revenue.Topup), n(d.Revenue.VIP), n(d.Revenue.Total), n(d.Withdrawals.Count),
			n(d.Withdrawals.Cents), n(d.Plays), n(d.Searches), n(d.Funnel.Visits)}
		for _, p := range names {
			row = append(row, n(d.ByProvider[p]))
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	return nil
}

// AdminTop is GET /api/admin/stats/top?kind=video|search&from&to[&limit][&format=csv].
func (s *Service) AdminTop(w http.ResponseWriter, r *http.Request) error {
	kind := r.URL.Query().Get("kind")
	if kind != KindVideo && kind != KindSearch {
		return httpx.Invalid("kind 只能是 video 或 search", "kind="+httpx.Echo(kind)+" is not video or search")
	}
	q := httpx.Q(r)
	limit := q.Int("limit", 20, 1, TopKeep)
	if err := q.Err(); err != nil {
		return err
	}
	from, to, err := s.rangeOf(r)
	if err != nil {
		return err
	}
	asCSV, err := wantsCSV(r)
	if err != nil {
		return err
	}
	list, err := s.Top(r.Context(), kind, from, to, int(limit))
	if err != nil {
		return badRange(err)
	}
	if !asCSV {
		return httpx.OK(w, list)
	}
	cw := startCSV(w, "stats-top-"+kind+"-"+from+"-"+to, []string{"rank", "key", "title", "count"})
	for i, t := range list {
		_ = cw.Write([]string{strconv.Itoa(i + 1), cell(t.Key), cell(t.Title), n(t.Count)})
	}
	cw.Flush()
	return nil
}

// AdminRollup is POST /api/admin/stats/rollup {day}: (re)builds the day
// now, audited.
func (s *Service) AdminRollup(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Day string `json:"day"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.Day == "" {
		in.Day = days.Of(s.now())
	}
	sp, err := SpanOf(in.Day)
	if err != nil {
		return badRange(err)
	}
	if sp.From.After(s.now()) {
		return httpx.Invalid("不能汇总未来的日期", "day "+in.Day+" has not begun")
	}
	actor := audit.ActorFrom(r)
	out, err := s.Rollup(r.Context(), in.Day, &actor)
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}

func n(v int64) string { return strconv.FormatInt(v, 10) }

// startCSV writes the headers, a byte order mark (spreadsheets read the
// Chinese right) and the header row.
func startCSV(w http.ResponseWriter, name string, head []string) *csv.Writer {
	hd := w.Header()
	hd.Set("Content-Type", "text/csv; charset=utf-8")
	hd.Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	hd.Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("\ufeff"))
	cw := csv.NewWriter(w)
	_ = cw.Write(head)
	return cw
}

// cell guards a text cell against formula injection (a searched word is
// typed by a user): one starting with = + - @ or a tab gets a leading '.
func cell(s string) string {
	if s != "" && strings.ContainsAny(s[:1], "=+-@\t\r") {
		return "'" + s
	}
	return s
}
