/**
 * What an item's actions menu opens (the rename form, the confirmation to close, a
 * workspace's guardrail menu): a chunk of its own, fetched when a menu first opens, as most
 * visits never open one.
 */
import '../ui/confirm-bar.js';
import '../ui/rename-form.js';
import './guardrail-menu.js';
