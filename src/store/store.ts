/**
 * The app's store: the state (state.ts) and its named actions, one file per
 * concern. Components and tests import from here; only the action files
 * write the state.
 */
export {
  useApp,
  chosenStrategyNames,
  type AppState,
  type CheckrideSettings,
  type CheckrideState,
  type DeepLink,
  type Filters,
  type LoadErrorInfo,
  type RecoveryState,
  type RoundsResponse,
  type SearchState,
  type Selection,
  type ShareState,
} from "./state.ts";
export * from "./load.ts";
export * from "./navigation.ts";
export * from "./deep-links.ts";
export * from "./checkride.ts";
export * from "./answer-key.ts";
export * from "./share.ts";
export * from "./presenter.ts";
export { countViewTokens, figuresFor, noteCheckrideCleared, useTokens } from "./tokens.ts";
export * from "./audit.ts";
export * from "./follow.ts";
