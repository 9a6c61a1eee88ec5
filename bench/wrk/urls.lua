-- wrk script for realistic traffic: walks the URL list in the file named by the URLS environment
-- variable (one path per line, drawn with the wanted frequencies) from a random start, counts
-- the answers the service gave from its cache (x-cache: hit), and prints one machine-readable
-- summary line (latencies in microseconds) like report.lua. ACCEPT_ENCODINGS (optional, values
-- separated by "|", an empty one for none): the Accept-Encoding headers sent, each request the next.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  for line in io.lines(os.getenv("URLS")) do
    if #line > 0 then paths[#paths + 1] = line end
  end
  math.randomseed(os.time() + #paths)
  index = math.random(#paths)
  encodings = {}
  local list = os.getenv("ACCEPT_ENCODINGS") or ""
  if #list > 0 then
    for value in (list .. "|"):gmatch("([^|]*)|") do encodings[#encodings + 1] = value end
  end
  turn = 0
  hits = 0
  misses = 0
end

function request()
  index = index % #paths + 1
  if #encodings == 0 then return wrk.format("GET", paths[index]) end
  turn = turn % #encodings + 1
  local value = encodings[turn]
  if #value == 0 then return wrk.format("GET", paths[index]) end
  return wrk.format("GET", paths[index], { ["Accept-Encoding"] = value })
end

function response(status, headers, body)
  local cache = headers["x-cache"] or headers["X-Cache"]
  if cache == "hit" then hits = hits + 1 elseif cache == "miss" then misses = misses + 1 end
end

done = function(summary, latency, requests)
  local h, m = 0, 0
  for _, thread in ipairs(threads) do
    h = h + (thread:get("hits") or 0)
    m = m + (thread:get("misses") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%.0f,"duration_us":%.0f,"bytes":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,' ..
    '"status":%.0f,"timeout":%.0f,"mean_us":%.1f,"max_us":%.0f,"p50_us":%.0f,"p90_us":%.0f,"p99_us":%.0f,' ..
    '"p999_us":%.0f,"hits":%.0f,"misses":%.0f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), h, m))
end
