# An exec hook for photosd written in jq alone: one line per change to the daemon's log.
#
#   [[hooks]]
#   name = "summary"
#   command = ["jq", "-r", "-f", "/path/to/Examples/hooks/summarize.jq"]
#
# Its standard output goes to photosd's log (capped per run).
if .expired then
  "\(.hook): history after token \(.since) is gone; re-read the library with `photos assets --json`"
else
  .changes[]
  | "token \(.token): "
    + ([ ("assets", "assetCollections", "collectionLists") as $type
         | .[$type] | to_entries[]
         | select(.value | length > 0)
         | "\(.value | length) \($type) \(.key)" ]
       | join(", "))
end
