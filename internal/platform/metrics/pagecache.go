package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"prima/internal/platform/pagecache"
)

// pageCacheCollector reports a page cache's counters and size.
type pageCacheCollector struct {
	c                       *pagecache.Cache
	lookups, entries, bytes *prometheus.Desc
}

// NewPageCacheCollector collects c's lookups by result
// (prima_pagecache_lookups_total: hit, stale, miss, evicted counts entries
// the budget dropped), prima_pagecache_entries and prima_pagecache_bytes.
func NewPageCacheCollector(c *pagecache.Cache) prometheus.Collector {
	return &pageCacheCollector{
		c: c,
		lookups: prometheus.NewDesc("prima_pagecache_lookups_total",
			"Public catalogue pages asked of this process's page cache: hit (fresh), stale (served while one refresh runs), miss (read from the database); evicted counts entries the memory budget dropped.",
			[]string{"result"}, nil),
		entries: prometheus.NewDesc("prima_pagecache_entries", "Pages in this process's page cache.", nil, nil),
		bytes:   prometheus.NewDesc("prima_pagecache_bytes", "Gzipped bytes of the pages in this process's page cache (PRIMA_PAGE_CACHE_MB bounds it).", nil, nil),
	}
}

func (p *pageCacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- p.lookups
	ch <- p.entries
	ch <- p.bytes
}

func (p *pageCacheCollector) Collect(ch chan<- prometheus.Metric) {
	s := p.c.Stats()
	for result, v := range map[string]uint64{"hit": s.Hits, "stale": s.Stale, "miss": s.Misses, "evicted": s.Evicted} {
		ch <- prometheus.MustNewConstMetric(p.lookups, prometheus.CounterValue, float64(v), result)
	}
	ch <- prometheus.MustNewConstMetric(p.entries, prometheus.GaugeValue, float64(s.Entries))
	ch <- prometheus.MustNewConstMetric(p.bytes, prometheus.GaugeValue, float64(s.Bytes))
}
