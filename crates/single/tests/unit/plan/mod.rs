mod node_plan;
mod profile;
