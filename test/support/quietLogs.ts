/**
 * Tests are quiet: the process's logger (the default of every app a test builds) logs nothing.
 * A test that asserts on logs gives its app its own logger (startTestServer captures them) or
 * spies on the logger's methods. Loaded before every test file (vitest.config.ts `setupFiles`).
 */
import { createLogger, setProcessLogger } from "../../src/log.js";

setProcessLogger(createLogger("silent"));
