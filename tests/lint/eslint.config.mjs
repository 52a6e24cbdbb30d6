// ESLint for the browser code (every app's static/**/*.js): ES modules as the browser
// loads them, no build step. Run by tests/test_lint_js.py.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/**", "staticfiles/**", "build/**"] },
  js.configs.recommended,
  {
    files: ["**/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      // `const { a: _, ...rest } = x` drops a field on purpose.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", varsIgnorePattern: "^_+$" }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "smart"],
    },
  },
];
