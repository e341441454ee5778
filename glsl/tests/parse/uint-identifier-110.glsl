void main() {
    float uint = 1.0, flat = 2.0, smooth = 3.0, layout = 4.0, in_ = 5.0;
    float texture2DRect = uint + flat + smooth + layout;
}
