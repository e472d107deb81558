mod aged;
mod calibration;
mod convolution;
mod pdf;
mod pos;
