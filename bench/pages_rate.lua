-- wrk at a fixed rate (bench/pages_load.py): one page, requests sent on a schedule.
--
--   wrk -t1 -cC -dDs -s bench/pages_rate.lua URL -- RATE [COOKIE]
--
-- wrk is closed-loop (each connection sends its next request when the last is
-- answered); here every request waits for its slot on the thread's schedule, one every
-- 1/RATE s (delay(), before each request, from a monotonic clock through LuaJIT's FFI),
-- so the offered rate is RATE whatever the answers' latency, as long as one of the C
-- connections is free at each slot (a thread far behind its schedule starts it again
-- from now rather than sending a burst). The latency wrk reports is from the moment a
-- request is written. COOKIE, if given, is sent as the Cookie header (a signed-in page).
-- done() prints one line "RESULT {json}" that bench/pages_load.py reads.

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } pages_timespec;
int clock_gettime(int clk_id, pages_timespec *tp);
]]
local CLOCK_MONOTONIC = 1
local clock = ffi.new("pages_timespec")

local function now_ms()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local period = 1000
local next_at = nil
local prepared = nil
not_ok = 0

function init(args)
  period = 1000 / tonumber(args[1])
  local headers = {}
  if args[2] ~= nil and args[2] ~= "" then
    headers["Cookie"] = args[2]
  end
  prepared = wrk.format("GET", wrk.path, headers)
end

function request()
  return prepared
end

function delay()
  local now = now_ms()
  if next_at == nil then
    next_at = now
  end
  next_at = next_at + period
  local wait = next_at - now
  if wait < 0 then
    if wait < -10 * period then
      next_at = now
    end
    return 0
  end
  return wait
end

function response(status, headers, body)
  if status ~= 200 then
    not_ok = not_ok + 1
  end
end

function done(summary, latency, requests)
  local others = 0
  for _, thread in ipairs(threads) do
    others = others + (thread:get("not_ok") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "duration_us": %d, "not_200": %d, "connect": %d, ' ..
    '"read": %d, "write": %d, "status": %d, "timeout": %d, "p50_us": %d, ' ..
    '"p95_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, others, e.connect, e.read, e.write, e.status,
    e.timeout, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    latency.max))
end
