-- wrk script: after the run, print one machine-readable line with the summary (latencies in
-- microseconds). Defines only done(), so wrk keeps its fast C path for requests and responses.
-- errors.status counts responses with a status >= 400 (wrk's "Non-2xx or 3xx responses").
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%.0f,"duration_us":%.0f,"bytes":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,' ..
    '"status":%.0f,"timeout":%.0f,"mean_us":%.1f,"max_us":%.0f,"p50_us":%.0f,"p90_us":%.0f,"p99_us":%.0f,"p999_us":%.0f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9)))
end
