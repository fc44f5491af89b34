-- wrk: one durable one-record save per request, each a new note of ~45 words drawn from 30 (text
-- that compresses as notes do, unlike modify.lua's repeated text), in zone "Load". Argument after --:
-- the database's token. What BENCHMARKS.md's "Server stores compress" measured.
local threads = {}
function setup(thread) thread:set("id", #threads + 1); table.insert(threads, thread) end
local words = {"milk","bread","call","mum","about","the","garden","meeting","notes","tomorrow","buy","book","friday","project","review","send","draft","email","plan","trip","dentist","tickets","fix","bike","water","plants","pay","rent","read","chapter"}
function init(args) token = args[1]; counter = 0; prefix = "w" .. id .. "-" .. os.time() .. "-"; math.randomseed(id * 7919) end
function request()
  counter = counter + 1
  local t = {}
  for i = 1, 45 do t[i] = words[math.random(#words)] end
  local body = '{"saves":[{"recordName":"' .. prefix .. counter .. '","zoneID":{"zoneName":"Load"},"recordType":"Note",'
    .. '"fields":{"text":{"value":"' .. table.concat(t, " ") .. '","type":"STRING"}}}]}'
  return wrk.format("POST", nil, {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
