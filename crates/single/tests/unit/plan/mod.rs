pub mod machine_plan;
mod node_plan;
mod profile;
