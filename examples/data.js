// host.request asks the host for data; `warden run --data F.json` answers
// from a JSON object. Try:
//   bin/warden run --data examples/data.json examples/data.js
const users = await host.request("users");
return users.filter((u) => u.active).map((u) => u.name);
