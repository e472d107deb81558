mod cost;
mod set;
