-- wrk: one durable one-record save per request, each a new record (a note of ~300 bytes) in
-- zone "Load". Arguments after --: the database's token; optionally a prefix for the record
-- names (two wrk runs at once against one database need different ones) and a number of zones N,
-- when the saves go round zones "Load0" … "Load<N-1>" instead (which must exist).
local threads = {}
function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  token = args[1]
  counter = 0
  prefix = (args[2] or "w") .. id .. "-" .. os.time() .. "-"
  zones = tonumber(args[3] or "0")
end

function request()
  counter = counter + 1
  local zone = "Load"
  if zones > 0 then zone = "Load" .. (counter % zones) end
  local body = '{"saves":[{"recordName":"' .. prefix .. counter .. '","zoneID":{"zoneName":"' .. zone .. '"},"recordType":"Note",'
    .. '"fields":{"text":{"value":"Note ' .. counter .. ': ' .. string.rep("lorem ipsum ", 22) .. '","type":"STRING"}}}]}'
  return wrk.format("POST", nil, {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
