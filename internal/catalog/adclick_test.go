package catalog

import (
	"context"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func adClicks(t *testing.T, d *db.DB, id int64) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRow(context.Background(), "SELECT clicks FROM ads WHERE id = ?", id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAdClick(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		newFixture(t, d)
		m := mux(NewHandler(newTestService(d, Options{})))
		var adID int64
		if err := d.QueryRow(context.Background(), "SELECT id FROM ads ORDER BY id LIMIT 1").Scan(&adID); err != nil {
			t.Fatal(err)
		}
		post := func(body string) int {
			rec := httptest.NewRecorder()
			m.ServeHTTP(rec, apitest.Scenario{Method: "POST", URL: "/api/app/ads/click", Body: body}.Request())
			return rec.Code
		}
		for _, c := range []struct {
			body string
			want int
		}{
			{`{"id":` + strconv.FormatInt(adID, 10) + `}`, 200},
			{`{"id":999999}`, 404},
			{`{}`, 422},
			{`{"id":0}`, 422},
			{`{"id":"x"}`, 400},
			{`{"id":`, 400},
		} {
			if got := post(c.body); got != c.want {
				t.Errorf("%s: %d, want %d", c.body, got, c.want)
			}
		}
		if n := adClicks(t, d, adID); n != 1 {
			t.Fatalf("clicks %d after one good click and five bad ones", n)
		}
		// Clicks arriving together are all counted.
		var wg sync.WaitGroup
		for range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if code := post(`{"id":` + strconv.FormatInt(adID, 10) + `}`); code != 200 {
					t.Errorf("concurrent click: %d", code)
				}
			}()
		}
		wg.Wait()
		if n := adClicks(t, d, adID); n != 41 {
			t.Fatalf("clicks %d, want 41", n)
		}
	})
}
