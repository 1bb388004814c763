"""Which browser a linked profile is, for the account page's list ("Chrome on Android"): read
from the user agent at sign-in (ua-parser, with uap-core's rules) and kept on the profile as two
short names, so the page parses nothing and says "on" in its own language."""

from ua_parser import parse

NAME_MAX = 40  # players.Profile.browser and .system
# uap-core names a browser's mobile builds apart; a player knows them by the browser's name.
BROWSERS = {
    "Chrome Mobile": "Chrome",
    "Chrome Mobile iOS": "Chrome",
    "Chrome Mobile WebView": "Chrome",
    "Mobile Safari": "Safari",
    "Mobile Safari UI/WKWebView": "Safari",
    "Firefox Mobile": "Firefox",
    "Firefox iOS": "Firefox",
    "Edge Mobile": "Edge",
    "Opera Mobile": "Opera",
}
SYSTEMS = {"Mac OS X": "macOS", "Chrome OS": "ChromeOS"}
APPLE_DEVICES = {"iPhone", "iPad", "iPod"}  # iOS is said as the device: "Safari on iPhone"
USER_AGENT_MAX = 1000  # longer ones are junk, and the rules' cost grows with the length


def browser_of(user_agent: str) -> tuple[str, str]:
    """(browser, system): ("Chrome", "Android"), ("Safari", "iPhone"); "" for what is unknown."""
    found = parse(user_agent[:USER_AGENT_MAX])
    browser = system = ""
    if found.user_agent is not None and found.user_agent.family != "Other":
        browser = BROWSERS.get(found.user_agent.family, found.user_agent.family)
    if found.os is not None and found.os.family != "Other":
        system = SYSTEMS.get(found.os.family, found.os.family)
        if system == "iOS" and found.device is not None and found.device.family in APPLE_DEVICES:
            system = found.device.family
    return browser[:NAME_MAX], system[:NAME_MAX]
