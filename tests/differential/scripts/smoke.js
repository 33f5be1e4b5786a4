const u = await host.request("user", { id: 1 });
let missing;
try { await host.request("nope"); } catch (e) { missing = [e.name, e.message]; }
return { u, missing, h: sha256("h\ud800i"), input };
