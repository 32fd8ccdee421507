/// The module's text: the descriptions as JSON, frozen, behind one function.
fn games_module() -> String {
    let json = serde_json::to_string_pretty(&arcade_core::GAMES).expect("descriptions serialize");
    format!(
        "// Every game as the fairness core describes it (arcade_core::GAMES), in its order.\n\
         // Written by `cargo run -p arcade-core --features serde --example games`; do not edit.\n\
         const DESCRIPTIONS = {json};\n\n\
         const deepFreeze = (value) => {{\n  if (value && typeof value === 'object') {{\n    Object.values(value).forEach(deepFreeze);\n    Object.freeze(value);\n  }}\n  return value;\n}};\n\
         deepFreeze(DESCRIPTIONS);\n\n\
         /** Every game as the core describes it: `[{{name, summary, outcomes, call, params, result, signed}}]`. */\n\
         export function gameDescriptions() {{\n  return DESCRIPTIONS;\n}}\n"
    )
}
