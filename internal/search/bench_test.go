package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// common are frequent Chinese characters, most frequent first (after the
// usual frequency lists); genTitle draws them Zipf-distributed, so 的 and 一
// are in a large share of titles, as in real text.
const common = "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从知已两开没实现当动把高长方给听正只样战美女手问理老头点气回北京电视频猫狗爱情教程游戏音乐旅行美食城市生活日常记录分享精彩搞笑最新完整版高清第集季"

var commonRunes = []rune(common)

func genTitle(r *rand.Rand, z *rand.Zipf) string {
	n := 6 + r.IntN(15)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(commonRunes[z.Uint64()])
	}
	if r.IntN(10) == 0 {
		b.WriteString(" iPhone" + strconv.Itoa(r.IntN(20)))
	}
	return b.String()
}

// fill writes n generated video titles as published videos (rows in bulk,
// a third of them short videos) and indexes them with Reindex.
func fill(tb testing.TB, d *db.DB, n int) int64 {
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 8, uint64(len(commonRunes)-1))
	ctx := context.Background()
	f := fx{tb.(*testing.T), d}
	_, home, sub, short, ssub := setup(f.t, d)
	var textBytes int64
	for start := 0; start < n; start += 500 {
		var rows []string
		var args []any
		for i := start; i < min(n, start+500); i++ {
			m, s := home, sub
			if i%3 == 0 {
				m, s = short, ssub
			}
			title := genTitle(r, z)
			textBytes += int64(len(title))
			rows = append(rows, "(?, ?, ?, ?, ?, 1, ?, ?)")
			args = append(args, title, m, s, i%3, r.IntN(100000), 1_700_000_000+i, 1_700_000_000+i)
		}
		f.exec(`INSERT INTO videos (title, module_id, sub_module_id, vip_level, play_count, published, created_at, updated_at) VALUES `+strings.Join(rows, ", "), args...)
	}
	if _, err := Reindex(ctx, d); err != nil {
		tb.Fatal(err)
	}
	return textBytes
}

// TestLatency measures p50/p99 of query classes on a generated index of
// PRIMA_SEARCH_DOCS titles (skipped unless set; 200000 is the local check).
//
//	PRIMA_SEARCH_DOCS=200000 go test ./internal/search -run TestLatency -v
func TestLatency(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PRIMA_SEARCH_DOCS"))
	if n == 0 {
		t.Skip("set PRIMA_SEARCH_DOCS")
	}
	engines := []db.Engine{db.SQLite, db.Postgres}
	if e := os.Getenv("PRIMA_SEARCH_ENGINE"); e != "" {
		engines = []db.Engine{db.Engine(e)}
	}
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			d := dbtest.Open(t, e)
			t0 := time.Now()
			text := fill(t, d, n)
			t.Logf("%d titles, %d bytes of text, filled in %s", n, text, time.Since(t0).Round(time.Millisecond))
			if e == db.SQLite {
				var size int64
				if err := d.QueryRow(context.Background(), `SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'search_fts%'`).Scan(&size); err == nil {
					t.Logf("FTS index %d bytes = %.2fx the text", size, float64(size)/float64(text))
				}
				rows, _ := d.Query(context.Background(), `SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8`)
				for rows.Next() {
					var nm string
					var sz int64
					rows.Scan(&nm, &sz)
					t.Logf("  %s %d", nm, sz)
				}
				rows.Close()
			} else {
				var size int64
				if err := d.QueryRow(context.Background(), `SELECT pg_total_relation_size('search_fts')`).Scan(&size); err == nil {
					t.Logf("search_fts (tsvector + GIN) %d bytes = %.2fx the text", size, float64(size)/float64(text))
				}
			}
			classes := map[string][]string{
				"1 common": {"的", "一", "是", "不", "了"},
				"1 rare":   {"猫", "狗", "集", "季", "版"},
				"2":        {"的一", "是不", "北京", "人我", "电视"},
				"4":        {"的一是不", "北京电视", "我的人了", "不了人我", "生活日常"},
				"mixed":    {"iPhone 的", "iphone1 是"},
			}
			for _, name := range []string{"1 common", "1 rare", "2", "4", "mixed"} {
				for _, sortBy := range []string{SortRelevance, SortNew} {
					var times []time.Duration
					for round := 0; round < 20; round++ {
						for _, s := range classes[name] {
							t1 := time.Now()
							_, total, err := Search(context.Background(), d, Query{Text: s, VipLevel: -1, Sort: sortBy, Limit: 20})
							times = append(times, time.Since(t1))
							if err != nil {
								t.Fatal(err)
							}
							if round == 0 && sortBy == SortRelevance {
								t.Logf("%q: %d in window", s, total)
							}
						}
					}
					slices.Sort(times)
					t.Logf("%-9s %-9s p50 %6.2f ms  p99 %6.2f ms", name, sortBy, ms(times[len(times)/2]), ms(times[len(times)*99/100]))
				}
			}
			var times []time.Duration
			for round := 0; round < 20; round++ {
				for _, s := range []string{"的", "北", "生活", "iph"} {
					t1 := time.Now()
					if _, err := Suggest(context.Background(), d, s, 8); err != nil {
						t.Fatal(err)
					}
					times = append(times, time.Since(t1))
				}
			}
			slices.Sort(times)
			t.Logf("suggest   p50 %6.2f ms  p99 %6.2f ms", ms(times[len(times)/2]), ms(times[len(times)*99/100]))
			fmt.Println()
		})
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
