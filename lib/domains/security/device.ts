// A short label for a session's device from its User-Agent ("Firefox on Windows"), shown in
// the sessions list and used to tell a new device for the sign-in notice. A label, not an
// identification: a user agent is whatever the client sends.
const BROWSERS: [RegExp, string][] = [
  [/Edg\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\//, "Firefox"],
  [/HeadlessChrome\//, "Headless Chrome"],
  [/Chrome\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (!browser && !system) return "Unknown device";
  if (!system) return browser ?? "Unknown device";
  return `${browser ?? "Browser"} on ${system}`;
}
