-- wrk script for bench/run's fetch floor: every connection requests the site's files in turn,
-- from the list of URL paths in the file given after "--" (one per line), round and round.
-- What wrk measures is then the rate at which a lean C HTTP client downloads the site, with no
-- parsing at all: the floor a crawler's wall time is compared with.
local paths = {}
local next_path = 1

function init(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = line
  end
  assert(#paths > 0, "fetch_floor.lua: no paths in " .. args[1])
end

function request()
  local path = paths[next_path]
  next_path = next_path % #paths + 1
  return wrk.format("GET", path)
end
