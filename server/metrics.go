package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// metrics are the daemon's Prometheus metrics, on a registry of their
// own (no global state). Tenants are labelled by name; a token never is.
type metrics struct {
	reg        *prometheus.Registry
	executions *prometheus.CounterVec
	latency    prometheus.Histogram
	queueWait  prometheus.Histogram
	oomKills   prometheus.Counter
	data       *prometheus.CounterVec
	bytesIn    prometheus.Counter
	bytesOut   prometheus.Counter
	rejections *prometheus.CounterVec
	// undelivered counts streamed executions whose client was too slow
	// (or gone) to take the result event.
	undelivered prometheus.Counter
	// parks, parksInline and resumes count parked executions, those
	// whose state the store could not take, and resumes by result.
	parks, parksInline, resumes *prometheus.CounterVec
}

func newMetrics(sup *supervisor.Supervisor) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		executions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_executions_total",
			Help: "Executions that ended, by outcome (ok or error) and error type (none when ok).",
		}, []string{"outcome", "error_type"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "warden_execution_duration_seconds",
			Help:    "Time from an accepted request to its envelope, queue wait included.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 16),
		}),
		queueWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "warden_queue_wait_seconds",
			Help:    "Time an execution waited for a child.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18),
		}),
		oomKills: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "warden_oom_kills_total",
			Help: "Executions whose child the cgroup OOM-killed.",
		}),
		data: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_data_requests_total",
			Help: "host.request calls answered, by channel (endpoint or webhook) and result (ok or error).",
		}, []string{"via", "result"}),
		bytesIn: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "warden_request_body_bytes_total",
			Help: "Request body bytes read.",
		}),
		bytesOut: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "warden_response_body_bytes_total",
			Help: "Response body bytes written (envelopes and events).",
		}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_quota_rejections_total",
			Help: "Requests refused by a tenant's quota, by tenant and quota (rate or concurrency).",
		}, []string{"tenant", "quota"}),
		undelivered: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "warden_results_undelivered_total",
			Help: "Streamed executions that ran to their end but whose client could not take the result event (too slow for the write timeout, or gone); each is logged.",
		}),
		parks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_parks_total",
			Help: "Executions that parked at a data request, by tenant.",
		}, []string{"tenant"}),
		parksInline: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_parks_unstored_total",
			Help: "Parked executions whose state the store refused (the tenant at its caps): the envelope carried the state.",
		}, []string{"tenant"}),
		resumes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_resumes_total",
			Help: "Resumes of parked executions, by tenant and result (ok, error, parked again, refused).",
		}, []string{"tenant", "result"}),
	}
	stats := func() supervisor.Stats { return sup.Stats() }
	m.reg.MustRegister(m.executions, m.latency, m.queueWait, m.oomKills, m.data, m.bytesIn, m.bytesOut, m.rejections, m.undelivered,
		m.parks, m.parksInline, m.resumes,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "warden_timeout_kills_total",
			Help: "Children SIGKILLed at their hard deadline."}, func() float64 { return float64(stats().Kills) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "warden_children_spawned_total",
			Help: "Children started."}, func() float64 { return float64(stats().Pool.Spawned) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "warden_child_spawn_failures_total",
			Help: "Child start-ups that failed."}, func() float64 { return float64(stats().Pool.SpawnFailures) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "warden_child_spawn_seconds",
			Help: "Median start-up time of recent children.", ConstLabels: prometheus.Labels{"quantile": "0.5"}},
			func() float64 { return stats().Pool.SpawnLatencyP50.Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "warden_child_spawn_seconds",
			Help: "Median start-up time of recent children.", ConstLabels: prometheus.Labels{"quantile": "0.9"}},
			func() float64 { return stats().Pool.SpawnLatencyP90.Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "warden_memory_profiles",
			Help: "Memory profiles the pool holds children or state for."}, func() float64 { return float64(stats().Pool.Profiles) }),
		&childrenCollector{stats: stats,
			all: prometheus.NewDesc("warden_children", "Child processes by state, all memory profiles together.", []string{"state"}, nil),
			byProfile: prometheus.NewDesc("warden_profile_children",
				"Child processes by profile (its memory bucket in bytes, and javascript or typescript: TypeScript's children warm esbuild) and state; waiting counts executions waiting for a child.", []string{"memory_bytes", "language", "state"}, nil)},
	)
	return m
}

// childrenCollector reports the children gauges from one snapshot per
// scrape (profiles come and go with ProfileIdleTTL: only those alive now).
type childrenCollector struct {
	all, byProfile *prometheus.Desc
	stats          func() supervisor.Stats
}

func (c *childrenCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.all
	ch <- c.byProfile
}

func (c *childrenCollector) Collect(ch chan<- prometheus.Metric) {
	p := c.stats().Pool
	for state, n := range childStates(p.Idle, p.Busy, p.Spawning, p.Waiting) {
		ch <- prometheus.MustNewConstMetric(c.all, prometheus.GaugeValue, float64(n), state)
	}
	for _, pr := range p.ByProfile {
		mem := strconv.FormatInt(pr.MemoryBytes, 10)
		lang := contract.LanguageJavaScript
		if pr.TypeScript {
			lang = contract.LanguageTypeScript
		}
		for state, n := range childStates(pr.Idle, pr.Busy, pr.Spawning, pr.Waiting) {
			ch <- prometheus.MustNewConstMetric(c.byProfile, prometheus.GaugeValue, float64(n), mem, lang, state)
		}
	}
}

// childStates names the counts of the children gauges by state.
func childStates(idle, busy, spawning, waiting int) map[string]int {
	return map[string]int{"idle": idle, "busy": busy, "spawning": spawning, "waiting": waiting}
}

// observe records one finished execution.
// errorType is an envelope's error type, "none" when it is ok.
func errorType(res *contract.Result) string {
	if res.OK || res.Error == nil {
		return "none"
	}
	return string(res.Error.Type)
}

func (m *metrics) observe(res *contract.Result, took time.Duration) {
	outcome, typ := "ok", errorType(res)
	if typ != "none" {
		outcome = "error"
		if res.Error.Kind == contract.KindOOMKill {
			m.oomKills.Inc()
		}
	}
	m.executions.WithLabelValues(outcome, typ).Inc()
	m.latency.Observe(took.Seconds())
	m.queueWait.Observe(res.Stats.QueueWaitMS / 1000)
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
