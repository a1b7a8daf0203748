// The test hook: what the table page received and sent, on window.__ludoteca, only when asked
// for with ?debug=1 in the address (remembered for the tab) or localStorage "ludoteca.debug" = "1".

function wanted() {
  try {
    if (new URLSearchParams(location.search).get("debug") === "1") sessionStorage.setItem("ludoteca.debug", "1");
    return sessionStorage.getItem("ludoteca.debug") === "1" || localStorage.getItem("ludoteca.debug") === "1";
  } catch {
    return false;
  }
}

/** A debug record for a page; published on window.__ludoteca when the debug flag is set. */
export function debugRecord(fields) {
  const record = { ...fields };
  if (wanted()) window.__ludoteca = record;
  return record;
}
