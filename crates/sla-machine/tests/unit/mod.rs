mod battery;
