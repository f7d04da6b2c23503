// The console's front end: Turbo (Drive, Frames, Streams, morphing page
// refreshes) and the Stimulus controllers that keep the browser's rules of
// console.md: one-shot stream recovery (logs, terminal), the
// protected preview iframe and deferred page refreshes.
// First: style elements get the page's CSP nonce, and Turbo opens stream
// sources as soon as its elements are defined.
import "./csp_nonce";
import "./shared_event_source";
import * as Turbo from "@hotwired/turbo";
import { Application } from "@hotwired/stimulus";
import { installPreviewGuard } from "./preview_guard";
import { installRefreshGuard } from "./refresh_guard";
import { installOrderGuard } from "./order_guard";
import PreviewController from "./controllers/preview_controller";
import LogsController from "./controllers/logs_controller";
import TerminalController from "./controllers/terminal_controller";

window.Turbo = Turbo;
installPreviewGuard();
installRefreshGuard();
installOrderGuard();

const app = Application.start();
app.register("preview", PreviewController);
app.register("logs", LogsController);
app.register("terminal", TerminalController);
