// Command baseline is the yardstick the bench compares Prima with: a bare
// net/http server that answers GET /api/app/vid/moduleVideo with the same
// envelope and list shape as Prima, holding 20 fixed videos in memory. It does
// no database work, no middleware and no logging, so the gap between it and
// Prima is what the database, the query and Prima's middleware cost.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"time"
)

// video has the fields of the API contract's Video, in the same JSON names.
type video struct {
	ID          int64    `json:"id"`
	Title       string   `json:"title"`
	Cover       string   `json:"cover"`
	Duration    int      `json:"duration"`
	PlayCount   int64    `json:"playCount"`
	LikeCount   int64    `json:"likeCount"`
	Tags        []string `json:"tags"`
	VipLevel    int      `json:"vipLevel"`
	Coins       int64    `json:"coins"`
	ModuleID    int64    `json:"moduleID"`
	SubModuleID int64    `json:"subModuleID"`
	CreatedAt   string   `json:"createdAt"`
}

type page struct {
	List       []video `json:"list"`
	Total      int64   `json:"total"`
	PageNumber int     `json:"pageNumber"`
	PageSize   int     `json:"pageSize"`
	HasMore    bool    `json:"hasMore"`
}

type envelope struct {
	Code int    `json:"code"`
	Tip  string `json:"tip"`
	Msg  string `json:"msg"`
	Data any    `json:"data"`
}

func main() {
	listen := flag.String("listen", "127.0.0.1:8081", "address to listen on (loopback)")
	flag.Parse()

	videos := make([]video, 20)
	created := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range videos {
		n := int64(i + 1)
		videos[i] = video{
			ID: 1_000_000 - n, Title: fmt.Sprintf("视频标题 %d 高清完整版", n), Cover: fmt.Sprintf("/media/covers/%d.png", n%8),
			Duration: 60 + i*97, PlayCount: n * 7919, LikeCount: n * 131, Tags: []string{"剧情", "高清"},
			VipLevel: i % 3, Coins: int64(i%5) * 10, ModuleID: 1, SubModuleID: 7,
			CreatedAt: created.Add(-time.Duration(i) * time.Hour).Format(time.RFC3339),
		}
	}

	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/app/vid/moduleVideo", func(w http.ResponseWriter, r *http.Request) {
		// Parse the paging parameters as a real handler must; the list is
		// the same whatever they say.
		q := r.URL.Query()
		pn, err := strconv.Atoi(q.Get("pageNumber"))
		if err != nil || pn < 1 {
			pn = 1
		}
		ps, err := strconv.Atoi(q.Get("pageSize"))
		if err != nil || ps < 1 || ps > 50 {
			ps = 20
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(envelope{Code: 200, Msg: "success", Data: page{
			List: videos, Total: 1_000_000, PageNumber: pn, PageSize: ps, HasMore: true,
		}})
	})
	mux.HandleFunc("GET /check", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) })

	srv := &http.Server{Addr: *listen, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stderr, "baseline listening on", *listen)
	log.Fatal(srv.ListenAndServe())
}
