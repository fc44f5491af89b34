-- wrk: a device's page of zone changes: the first 400 records of zone "Load" (from no token),
-- without gzip. Arguments after --: the database's token, the page's size.
function init(args)
  token = args[1]
  body = '{"zones":[{"zoneID":{"zoneName":"Load"},"resultsLimit":' .. (args[2] or "400") .. '}]}'
end

function request()
  return wrk.format("POST", nil, {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
